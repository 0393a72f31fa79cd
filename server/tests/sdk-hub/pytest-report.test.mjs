// node --test server/tests/sdk-hub/pytest-report.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeRun, readJunitReport } from './pytest-report.mjs';

// What pytest 8 writes with --junitxml, trimmed to the parts the runner reads.
const report = (cases) =>
  `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" tests="${cases.length}">${cases.join('')}</testsuite></testsuites>`;
const passed = (classname, name) => `<testcase classname="${classname}" name="${name}" time="0.100" />`;
const HUB = 'tests.integration.test_import_features.TestImportFeaturesFromHub';

test('a run whose tests all passed is good, with its counts', () => {
  const cases = readJunitReport(report([passed(HUB, 'test_import_from_hub_with_upper_case_columns'), passed(HUB, 'test_import_with_row_id_as_record_id')]));
  assert.deepEqual(judgeRun(cases), { counts: { passed: 2, skipped: 0, failed: 0, error: 0 }, problems: [] });
});

test('a Hub test that skipped itself for want of a token fails the run, naming it and the reason', () => {
  const skipped = `<testcase classname="${HUB}" name="test_import_from_hub_with_unlabelled_classes" time="0.000"><skipped type="pytest.skip" message="No HF token provided">tests/integration/test_import_features.py:82: No HF token provided</skipped></testcase>`;
  const { counts, problems } = judgeRun(readJunitReport(report([passed(HUB, 'test_import_with_row_id_as_record_id'), skipped])));
  assert.deepEqual(counts, { passed: 1, skipped: 1, failed: 0, error: 0 });
  assert.deepEqual(problems, [`skipped: ${HUB}::test_import_from_hub_with_unlabelled_classes (No HF token provided)`]);
});

test('the test the SDK skips everywhere may skip', () => {
  const skipped = `<testcase classname="tests.integration.test_update_records.TestUpdateRecords" name="test_update_records_without_fields" time="0.000"><skipped type="pytest.skip" message="This test is failing because the backend expects the fields to be present in the data.">…</skipped></testcase>`;
  const { counts, problems } = judgeRun(readJunitReport(report([passed(HUB, 'test_import_with_row_id_as_record_id'), skipped])));
  assert.equal(counts.skipped, 1);
  assert.deepEqual(problems, []);
});

test('failures and fixture errors fail the run; their messages are unescaped', () => {
  const failed = `<testcase classname="${HUB}" name="test_a" time="0.000"><failure message="AssertionError: a &lt;b&gt; &amp; c&#10;assert 1 == 2">self = &lt;x&gt;</failure></testcase>`;
  const errored = `<testcase classname="${HUB}" name="test_b" time="0.000"><error message="failed on setup with &quot;RuntimeError: boom&quot;">…</error></testcase>`;
  const cases = readJunitReport(report([failed, errored]));
  assert.deepEqual(
    cases.map(({ outcome, message }) => [outcome, message]),
    [
      ['failed', 'AssertionError: a <b> & c\nassert 1 == 2'],
      ['error', 'failed on setup with "RuntimeError: boom"'],
    ],
  );
  assert.deepEqual(judgeRun(cases).problems, [`failed: ${HUB}::test_a`, `error: ${HUB}::test_b`]);
});

test('a run with no test at all fails', () => {
  assert.deepEqual(judgeRun(readJunitReport(report([]))).problems, ['no test ran']);
});
