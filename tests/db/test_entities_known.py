"""Retain passes the names a bank knows to the offline extractor: a sentence's first word, an abbreviation."""

from __future__ import annotations


def names(db, bank_id, text):
    """The entity names of the bank's memory unit ``text``, sorted."""
    rows = db.execute(
        "SELECT e.canonical_name FROM hindsight.memory_units u JOIN hindsight.unit_entities ue"
        " ON ue.bank_id = u.bank_id AND ue.unit_id = u.id JOIN hindsight.entities e"
        " ON e.bank_id = ue.bank_id AND e.id = ue.entity_id WHERE u.bank_id = %s AND u.text = %s ORDER BY 1",
        (bank_id, text),
    )
    return [r[0] for r in rows.fetchall()]


def retain(db, bank_id, text, **given):
    arguments = "".join(f", {k} => %({k})s" for k in given)
    db.execute(f"SELECT * FROM hindsight.retain_text(%(bank)s, %(text)s{arguments})", {"bank": bank_id, "text": text,
                                                                                          **given})  # fmt: skip


NOTES = "Priya: Falcon sync notes: wireframes approved, Android next."


def test_a_later_retain_knows_the_names_of_the_bank(db):
    db.execute("SELECT hindsight.create_bank('known'), hindsight.create_bank('fresh')")
    retain(db, "known", "Maya: Priya is the tech lead for Falcon.")
    retain(db, "known", NOTES)
    retain(db, "fresh", NOTES)
    # one message alone cannot tell "Falcon sync notes" from "Comments welcome"; the bank knows Falcon
    assert names(db, "known", NOTES) == ["Android", "Falcon", "Priya"]
    assert names(db, "fresh", NOTES) == ["Android", "Priya"]


def test_an_abbreviation_is_a_name_once_the_bank_knows_it(db):
    db.execute("SELECT hindsight.create_bank('gdpr'), hindsight.create_bank('plain')")
    audit = "Jonas: The GDPR audit starts today, with the SDK changelog."
    retain(db, "plain", audit)
    assert names(db, "plain", audit) == ["Jonas"]
    retain(db, "gdpr", "Maya: Jonas owns the audit.", entities=["GDPR"])
    retain(db, "gdpr", audit)
    assert names(db, "gdpr", audit) == ["GDPR", "Jonas"]


def test_names_of_earlier_items_of_the_same_call_are_known(client, db):
    client.create_bank("call")
    client.retain_batch("call", [{"content": "Maya: Priya is the tech lead for Falcon."}, {"content": NOTES}])
    assert names(db, "call", NOTES) == ["Android", "Falcon", "Priya"]
