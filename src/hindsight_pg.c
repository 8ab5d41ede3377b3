/*
 * hindsight_pg's one C function: the bank access check of the row-level security policies.
 *
 * hindsight._bank_access(bank_id text, role name, privilege int) RETURNS bool
 *
 * True when `role` may use `bank_id` with at least `privilege` (1 read, 2 write, 3 admin), as
 * hindsight._bank_level(bank_id, role) says. The policies on every bank-keyed table call it per
 * row (sql/schema/004-security.sql); it asks _bank_level once per bank and role per statement
 * and keeps the answer in the call site's fn_extra, which lives exactly as long as one execution
 * of the statement, so a grant or revoke takes effect with the next statement.
 *
 * Why C: Citus does not allow subqueries in the policies of distributed tables, and evaluates
 * the policies on the workers, per row; a SQL or PL/pgSQL check would run a query for every row
 * (about 50 microseconds each through Citus), where this one runs one per bank and statement.
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(hindsight_bank_access);

#define ACCESS_KEY_SIZE 1024	/* role, a separator and the bank id (at most 200 characters) */

typedef struct AccessEntry
{
	char		key[ACCESS_KEY_SIZE];
	int32		level;
} AccessEntry;

static int32
bank_level(text *bank_id, Name role)
{
	Oid			types[2] = {TEXTOID, NAMEOID};
	Datum		values[2] = {PointerGetDatum(bank_id), NameGetDatum(role)};
	bool		isnull;
	int32		level = 0;
	Datum		d;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "hindsight._bank_access: SPI_connect failed");
	if (SPI_execute_with_args("SELECT hindsight._bank_level($1, $2)", 2, types, values, NULL, true, 1)
		!= SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "hindsight._bank_access: hindsight._bank_level did not return one row");
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		level = DatumGetInt32(d);
	SPI_finish();
	return level;
}

Datum
hindsight_bank_access(PG_FUNCTION_ARGS)
{
	text	   *bank_id;
	Name		role;
	int32		privilege;
	HTAB	   *cache = (HTAB *) fcinfo->flinfo->fn_extra;
	AccessEntry *entry;
	char		key[ACCESS_KEY_SIZE];
	int			role_len,
				bank_len;
	bool		found;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_BOOL(false);
	bank_id = PG_GETARG_TEXT_PP(0);
	role = PG_GETARG_NAME(1);
	privilege = PG_GETARG_INT32(2);

	role_len = strlen(NameStr(*role));
	bank_len = VARSIZE_ANY_EXHDR(bank_id);
	if (role_len + 1 + bank_len >= ACCESS_KEY_SIZE)
		PG_RETURN_BOOL(bank_level(bank_id, role) >= privilege);	/* too long to cache: ask */

	memset(key, 0, sizeof(key));
	memcpy(key, NameStr(*role), role_len);
	key[role_len] = '\x01';
	memcpy(key + role_len + 1, VARDATA_ANY(bank_id), bank_len);

	if (cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = ACCESS_KEY_SIZE;
		ctl.entrysize = sizeof(AccessEntry);
		ctl.hcxt = fcinfo->flinfo->fn_mcxt;
		cache = hash_create("hindsight bank access", 16, &ctl, HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
		fcinfo->flinfo->fn_extra = cache;
	}
	entry = (AccessEntry *) hash_search(cache, key, HASH_FIND, NULL);
	if (entry == NULL)
	{
		int32		level = bank_level(bank_id, role);

		entry = (AccessEntry *) hash_search(cache, key, HASH_ENTER, &found);
		entry->level = level;
	}
	PG_RETURN_BOOL(entry->level >= privilege);
}
