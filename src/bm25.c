/*
 * The BM25 keyword arm's scorer: every posting of the query's terms read from the postings index
 * and summed per unit in C.
 *
 * hindsight._bm25_scores(bank_id text, terms text[], weights float8[], bases float8[],
 *                        per_lengths float8[], k int)
 *     RETURNS TABLE (unit_id uuid, score float8, doc_length int)
 *
 * For each term t (terms[i], with its constants weights[i] = idf(t) * (k1 + 1), bases[i] =
 * k1 * (1 - b), per_lengths[i] = k1 * b / avgdl, as hindsight._bm25_arm folds them), every row of
 * hindsight._bm25_postings for (bank_id, t) adds weights[i] * tf / (tf + bases[i] + per_lengths[i]
 * * doc_length) to its unit's score (Okapi BM25; Robertson & Zaragoza, "The Probabilistic Relevance
 * Framework: BM25 and Beyond", 2009). Scores come back rounded to 1e-12, as the SQL scorer rounds
 * them. With k: the k best by score, then doc_length (longer first), then unit_id, in that order;
 * with k NULL: every unit scored, in no order.
 *
 * Why C: the SQL form (an index-only scan joined to the terms and a hash aggregate) spends about
 * 0.5 microseconds a posting in the executor, and a question's terms hold up to a quarter of a
 * million postings in a bank of a million units. Here the postings' primary key is read directly,
 * one scan a term, each in unit_id order (an index-only read: a heap tuple is visited only on a page
 * the visibility map does not mark all-visible), and the scans are merged, so each unit's score is
 * summed in one step and offered to a heap of the k best: no table of every unit scored. The scan
 * honours the table's privileges and its row-level security: a caller the bank's policy hides it
 * from gets no rows, as a SELECT would. It reads the local table only: where Citus distributes
 * _bm25_postings the SQL scorer runs instead (hindsight._bm25_arm decides).
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "access/itup.h"
#include "executor/tuptable.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/binaryheap.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/uuid.h"

PG_FUNCTION_INFO_V1(hindsight_bm25_scores);

/* _bm25_postings' primary key (bank_id, term, unit_id) INCLUDE (tf, doc_length): its columns */
#define POSTING_UNIT_ID		3
#define POSTING_TF			4
#define POSTING_DOC_LENGTH	5

/* the most results kept in order (the heap is allocated at k): far above any recall budget */
#define MAX_K				1000000

typedef struct UnitScore
{
	pg_uuid_t	unit_id;
	double		score;
	int32		doc_length;
} UnitScore;

/* Better first: score descending, then doc_length descending, then unit_id ascending. */
static int
unit_score_cmp(const UnitScore *a, const UnitScore *b)
{
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->doc_length != b->doc_length)
		return a->doc_length > b->doc_length ? -1 : 1;
	return memcmp(a->unit_id.data, b->unit_id.data, UUID_LEN);
}

static int
unit_score_qsort_cmp(const void *a, const void *b)
{
	return unit_score_cmp(*(UnitScore *const *) a, *(UnitScore *const *) b);
}

/* binaryheap keeps its greatest element first: "greater" is worse, so the first is the worst kept */
static int
unit_score_heap_cmp(Datum a, Datum b, void *arg)
{
	return unit_score_cmp((UnitScore *) DatumGetPointer(a), (UnitScore *) DatumGetPointer(b));
}

/* One term's scan of the postings index and the posting it stands on. */
typedef struct TermScan
{
	int			term;			/* index into the arguments' arrays */
	IndexScanDesc scan;
	TupleTableSlot *slot;		/* for the heap tuple, where the page is not all-visible */
	pg_uuid_t	unit_id;
	int32		tf;
	int32		doc_length;
} TermScan;

/* Steps ts to its next visible posting; false at the end of the term's postings. */
static bool
term_scan_next(TermScan *ts, Relation heap, Buffer *vm_buffer)
{
	ItemPointer tid;

	while ((tid = index_getnext_tid(ts->scan, ForwardScanDirection)) != NULL)
	{
		Datum		values[INDEX_MAX_KEYS];
		bool		isnull[INDEX_MAX_KEYS];

		/*
		 * As an index-only scan does (nodeIndexonlyscan.c): the heap only where the page is not
		 * all-visible, else a predicate lock on the heap page for serializable transactions.
		 */
		if (!VM_ALL_VISIBLE(heap, ItemPointerGetBlockNumber(tid), vm_buffer))
		{
			bool		visible = index_fetch_heap(ts->scan, ts->slot);

			if (ts->scan->xs_heap_continue)
				elog(ERROR, "hindsight._bm25_scores: non-MVCC snapshots are not supported");
			ExecClearTuple(ts->slot);
			if (!visible)
				continue;
		}
		else
			PredicateLockPage(heap, ItemPointerGetBlockNumber(tid), ts->scan->xs_snapshot);
		index_deform_tuple(ts->scan->xs_itup, ts->scan->xs_itupdesc, values, isnull);
		memcpy(ts->unit_id.data, DatumGetUUIDP(values[POSTING_UNIT_ID - 1])->data, UUID_LEN);
		ts->tf = DatumGetInt32(values[POSTING_TF - 1]);
		ts->doc_length = DatumGetInt32(values[POSTING_DOC_LENGTH - 1]);
		return true;
	}
	return false;
}

static void
term_scan_end(TermScan *ts)
{
	index_endscan(ts->scan);
	ExecDropSingleTupleTableSlot(ts->slot);
}

/*
 * Whether row-level security would hide the bank's rows of relid from the current user: the
 * derived tables' one policy, bank_read (sql/functions/banks/access.sql), which every row of the
 * scan meets alike (all hold bank_id). A change to that policy must change this check too.
 */
static bool
bank_hidden(Oid relid, text *bank_id)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {PointerGetDatum(bank_id)};
	bool		isnull;
	bool		visible;
	Datum		d;

	if (check_enable_rls(relid, InvalidOid, false) != RLS_ENABLED)
		return false;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "hindsight._bm25_scores: SPI_connect failed");
	/* the policy of the derived tables (sql/functions/banks/access.sql) */
	if (SPI_execute_with_args("SELECT hindsight._bank_access($1, current_user, 1)", 1, types, values, NULL, true, 1)
		!= SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "hindsight._bm25_scores: hindsight._bank_access did not return one row");
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	visible = !isnull && DatumGetBool(d);
	SPI_finish();
	return !visible;
}

/* Reads the float8[] argument argno into a palloc'd array of n values (NULL elements refused). */
static double *
float8_arg(FunctionCallInfo fcinfo, int argno, int n, const char *name)
{
	ArrayType  *array = PG_GETARG_ARRAYTYPE_P(argno);
	Datum	   *elems;
	bool	   *nulls;
	int			count;
	double	   *out;

	deconstruct_array(array, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elems, &nulls, &count);
	if (count != n)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hindsight._bm25_scores: %s has %d elements, terms has %d", name, count, n),
				 errhint("Pass one weight, base and per_length for each term, as hindsight._bm25_arm does.")));
	out = palloc(sizeof(double) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("hindsight._bm25_scores: %s[%d] is NULL", name, i + 1)));
		out[i] = DatumGetFloat8(elems[i]);
	}
	return out;
}

Datum
hindsight_bm25_scores(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text	   *bank_id;
	Datum	   *terms;
	bool	   *term_nulls;
	int			nterms;
	double	   *weights;
	double	   *bases;
	double	   *per_lengths;
	int32		k = -1;
	Oid			namespace_id;
	Oid			heap_id;
	Oid			index_id;
	Relation	heap;
	Relation	index;
	AclResult	acl;
	UnitScore **kept = NULL;
	int			nkept = 0;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3) || PG_ARGISNULL(4))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("hindsight._bm25_scores: bank_id, terms, weights, bases and per_lengths must not be NULL")));
	bank_id = PG_GETARG_TEXT_PP(0);
	deconstruct_array(PG_GETARG_ARRAYTYPE_P(1), TEXTOID, -1, false, TYPALIGN_INT, &terms, &term_nulls, &nterms);
	weights = float8_arg(fcinfo, 2, nterms, "weights");
	bases = float8_arg(fcinfo, 3, nterms, "bases");
	per_lengths = float8_arg(fcinfo, 4, nterms, "per_lengths");
	if (!PG_ARGISNULL(5))
	{
		k = PG_GETARG_INT32(5);
		if (k < 0 || k > MAX_K)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("hindsight._bm25_scores: k must be within [0, %d], got %d", MAX_K, k),
					 errhint("Pass NULL for every unit scored.")));
	}

	namespace_id = get_namespace_oid("hindsight", false);
	heap_id = get_relname_relid("_bm25_postings", namespace_id);
	index_id = get_relname_relid("_bm25_postings_pkey", namespace_id);
	if (!OidIsValid(heap_id) || !OidIsValid(index_id))
		elog(ERROR, "hindsight._bm25_scores: hindsight._bm25_postings or its primary key is missing");
	acl = pg_class_aclcheck(heap_id, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_TABLE, "_bm25_postings");
	if (nterms == 0 || k == 0 || bank_hidden(heap_id, bank_id))
		PG_RETURN_NULL();

	/* the locks are held to the end of the transaction, as a query's are */
	heap = table_open(heap_id, AccessShareLock);
	index = index_open(index_id, AccessShareLock);
	if (heap->rd_rel->relkind != RELKIND_RELATION || index->rd_index->indrelid != heap_id ||
		IndexRelationGetNumberOfAttributes(index) != POSTING_DOC_LENGTH)
		elog(ERROR, "hindsight._bm25_scores: hindsight._bm25_postings_pkey is not the postings' primary key");
	{
		Snapshot	snapshot = GetActiveSnapshot();
		TermScan   *scans = palloc0(sizeof(TermScan) * nterms);
		int			live = 0;
		Buffer		vm_buffer = InvalidBuffer;
		binaryheap *best = NULL;
		UnitScore  *spare = palloc(sizeof(UnitScore));

		if (k >= 0)
		{
			best = binaryheap_allocate(Max(k, 1), unit_score_heap_cmp, NULL);
			kept = palloc(sizeof(UnitScore *) * Max(k, 1));
		}
		for (int i = 0; i < nterms; i++)
		{
			ScanKeyData keys[2];

			if (term_nulls[i])
				continue;
			ScanKeyEntryInitialize(&keys[0], 0, 1, BTEqualStrategyNumber, InvalidOid,
								   index->rd_indcollation[0], F_TEXTEQ, PointerGetDatum(bank_id));
			ScanKeyEntryInitialize(&keys[1], 0, 2, BTEqualStrategyNumber, InvalidOid,
								   index->rd_indcollation[1], F_TEXTEQ, terms[i]);
			scans[live].term = i;
			scans[live].scan = index_beginscan(heap, index, snapshot, 2, 0);
			scans[live].scan->xs_want_itup = true;
			scans[live].slot = table_slot_create(heap, NULL);
			index_rescan(scans[live].scan, keys, 2, NULL, 0);
			if (term_scan_next(&scans[live], heap, &vm_buffer))
				live++;
			else
				term_scan_end(&scans[live]);
		}
		/*
		 * Each term's postings come in unit_id order (the key's third column): a merge of the terms'
		 * scans meets each unit once with all its postings, so its score is final at once and goes
		 * straight to the k best, with no table of every unit scored.
		 */
		while (live > 0)
		{
			pg_uuid_t	unit_id;
			UnitScore  *unit = spare;
			double		denominator;

			CHECK_FOR_INTERRUPTS();
			unit_id = scans[0].unit_id;
			for (int j = 1; j < live; j++)
				if (memcmp(scans[j].unit_id.data, unit_id.data, UUID_LEN) < 0)
					unit_id = scans[j].unit_id;
			unit->unit_id = unit_id;
			unit->score = 0.0;
			unit->doc_length = PG_INT32_MIN;
			/* the terms in their order (rarest first), each the SQL scorer's expression */
			for (int j = 0; j < live; j++)
			{
				TermScan   *ts = &scans[j];
				int			i = ts->term;

				if (memcmp(ts->unit_id.data, unit_id.data, UUID_LEN) != 0)
					continue;
				denominator = (double) ts->tf + bases[i] + per_lengths[i] * (double) ts->doc_length;
				if (denominator == 0.0)
					ereport(ERROR,
							(errcode(ERRCODE_DIVISION_BY_ZERO),
							 errmsg("division by zero"),
							 errhint("Check the bank's bm25_k1 and bm25_b (b within [0, 1]).")));
				unit->score += weights[i] * (double) ts->tf / denominator;
				unit->doc_length = Max(unit->doc_length, ts->doc_length);
				if (!term_scan_next(ts, heap, &vm_buffer))
				{
					term_scan_end(ts);
					memmove(&scans[j], &scans[j + 1], sizeof(TermScan) * (live - j - 1));
					live--;
					j--;
				}
			}
			/* rounded to 1e-12 as the SQL scorer rounds: a sum's last bit must not decide a tie */
			unit->score = rint(unit->score * 1e12) / 1e12;
			if (!isfinite(unit->score))
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("value out of range: overflow"),
						 errhint("Check the bank's bm25_k1 and bm25_b (b within [0, 1]).")));
			if (best == NULL)
			{
				Datum		values[3];
				bool		nulls[3] = {false, false, false};

				values[0] = UUIDPGetDatum(&unit->unit_id);
				values[1] = Float8GetDatum(unit->score);
				values[2] = Int32GetDatum(unit->doc_length);
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			}
			else if (best->bh_size < k)
			{
				binaryheap_add(best, PointerGetDatum(unit));
				spare = palloc(sizeof(UnitScore));
			}
			else if (unit_score_cmp(unit, (UnitScore *) DatumGetPointer(binaryheap_first(best))) < 0)
			{
				/* the worst kept makes room and its memory takes the next unit */
				spare = (UnitScore *) DatumGetPointer(binaryheap_first(best));
				binaryheap_replace_first(best, PointerGetDatum(unit));
			}
		}
		if (BufferIsValid(vm_buffer))
			ReleaseBuffer(vm_buffer);
		if (best != NULL)
		{
			for (int i = 0; i < best->bh_size; i++)
				kept[nkept++] = (UnitScore *) DatumGetPointer(best->bh_nodes[i]);
			qsort(kept, nkept, sizeof(UnitScore *), unit_score_qsort_cmp);
		}
	}
	index_close(index, NoLock);
	table_close(heap, NoLock);

	for (int i = 0; i < nkept; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = UUIDPGetDatum(&kept[i]->unit_id);
		values[1] = Float8GetDatum(kept[i]->score);
		values[2] = Int32GetDatum(kept[i]->doc_length);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	PG_RETURN_NULL();
}
