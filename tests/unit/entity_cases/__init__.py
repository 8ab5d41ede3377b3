"""Entity extraction test tables: what a careful reader lists as the entities of a message.

``team_chat.LABELS`` labels the demo chat (hindsight_pg/data/team_chat.json) by message index;
bench/entity_labels_locomo.json labels LoCoMo dev turns by (sample_id, dia_id) without their text.
Both were written by hand before the extractor's name rules were revised, from these conventions:

* entities are people, pets, places, organisations, products, projects, named events and works,
  each as it should be stored: the name as written in the message ("Mel", "Postgres"), a version
  kept with its name ("PostgreSQL 11", "Falcon 1.2"), a coordination split ("iOS and Android" is
  two), a run of two names split ("Falcon Android prototype": "Falcon" and "Android");
* not entities: months, weekdays and dates, holidays and named days ("Easter", "Black Friday",
  "Valentine's day"), time zones, greetings and interjections, teams inside the company
  ("Finance", "support"), adjectives of nationality or group ("Georgian", "LGBTQ"), shouted or
  technical words ("LIKE", "SDK", "3DS", "GA");
* the speaker of a message counts only where the text names them.

tests/unit/test_entity_labels.py scores :func:`hindsight_pl.retain.names.find_names` on the demo chat;
bench/entities.py reports precision and recall on both sources.
"""
