// hindsight_pg from Node with the `pg` package alone: create a bank, retain three facts, recall, embed.
//
// Connection: DATABASE_URL (postgresql://user@host:port/db) when set, otherwise libpq's variables
// (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD), which `pg` reads itself. For the embedded server
// (`hindsight-pg server start`): PGHOST=~/.local/share/hindsight-pg PGDATABASE=hindsight PGUSER=postgres.
// The bank is argv[2] or "node-example"; running again replaces the same three documents.
//
// hindsight.embed returns vector[], a type `pg` has no parser for: cast each vector to text, whose
// form ([0.1,0.2,...]) is a JSON array, and send one back the same way (JSON.stringify, $n::vector).
"use strict";

const { Client } = require("pg");

const FACTS = [
  ["standup", "The team's standup is at 9:30 every weekday in the Lisbon room."],
  ["billing", "Priya moved the billing service to PostgreSQL 16 in March."],
  ["editor", "Marco writes all his code in Neovim."],
];
const QUESTION = "What time is the standup?";

async function main() {
  const bank = process.argv[2] || "node-example";
  const client = new Client(process.env.DATABASE_URL ? { connectionString: process.env.DATABASE_URL } : {});
  await client.connect();
  try {
    // create_bank returns the bank's id; if_not_exists makes a second run a no-op
    await client.query("SELECT hindsight.create_bank($1, if_not_exists => true)", [bank]);
    console.log(`bank: ${bank}`);

    // retain_text: one row per memory unit stored (document_id, unit_id, merged)
    for (const [documentId, text] of FACTS) {
      const { rows } = await client.query(
        "SELECT document_id, unit_id FROM hindsight.retain_text($1, $2, document_id => $3)",
        [bank, text, documentId],
      );
      console.log(`retained: ${documentId} -> ${rows.filter((r) => r.unit_id !== null).length} unit(s)`);
    }

    // recall: rows best first; the database embeds the question (query_embedding NULL)
    const recalled = await client.query(
      "SELECT rank, text, score FROM hindsight.recall($1, $2, max_tokens => 1024) WHERE rank <= 3 ORDER BY rank",
      [bank, QUESTION],
    );
    console.log(`recall: ${QUESTION}`);
    for (const r of recalled.rows) console.log(`  ${r.rank}. ${r.text} (score ${r.score.toFixed(3)})`);

    // embed: vector[] cast to text[], each element parsed as JSON; 384 numbers of unit length
    const embedded = await client.query(
      "SELECT e::text AS embedding FROM unnest(hindsight.embed($1, $2::text[], 'query')) WITH ORDINALITY AS t(e, i) " +
        "ORDER BY i",
      [bank, [QUESTION]],
    );
    const vector = JSON.parse(embedded.rows[0].embedding);
    const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
    const first = vector.slice(0, 3).map((x) => x.toFixed(6)).join(", ");
    console.log(`embed: ${vector.length} dimensions, norm ${norm.toFixed(3)}, first [${first}]`);

    // the same vector sent back as recall's query_embedding (text form, cast to vector)
    const again = await client.query(
      "SELECT rank, text FROM hindsight.recall($1, $2, $3::vector, max_tokens => 1024) WHERE rank = 1",
      [bank, QUESTION, JSON.stringify(vector)],
    );
    console.log(`recall with that embedding: 1. ${again.rows[0].text}`);
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  // a database error carries its SQLSTATE (HS404 unknown bank, ...) and often a hint
  console.error(`error: ${err.message}${err.code ? ` [${err.code}]` : ""}${err.hint ? `\nhint: ${err.hint}` : ""}`);
  process.exit(1);
});
