// Reads pytest's JUnit XML report and judges a run of the argilla SDK's own tests: a skipped test is as bad as a
// failed one (the Hub tests skip themselves when they find no token), except the tests the SDK skips everywhere.

/** Skipped by the SDK itself whatever the environment (`@pytest.mark.skip` in argilla 2.8.0's tests). */
export const ALWAYS_SKIPPED = new Set(['tests.integration.test_update_records.TestUpdateRecords::test_update_records_without_fields']);

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (text) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity) =>
    entity.startsWith('#x') || entity.startsWith('#X')
      ? String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
      : entity.startsWith('#')
        ? String.fromCodePoint(Number(entity.slice(1)))
        : ENTITIES[entity.toLowerCase()],
  );

const attribute = (attributes, name) => {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(attributes);
  return match ? unescape(match[1]) : '';
};

/**
 * The test cases of a pytest `--junitxml` report: `classname::name`, and outcome `passed`, `skipped`, `failed`
 * (an assertion) or `error` (in a fixture or at collection), with the skip reason or failure message.
 */
export function readJunitReport(xml) {
  const cases = [];
  const testcase = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let match = testcase.exec(xml); match; match = testcase.exec(xml)) {
    const [, attributes, body = ''] = match;
    const id = `${attribute(attributes, 'classname')}::${attribute(attributes, 'name')}`;
    const verdict = /<(failure|error|skipped)\b([^>]*)/.exec(body);
    const outcome = verdict ? { failure: 'failed', error: 'error', skipped: 'skipped' }[verdict[1]] : 'passed';
    cases.push({ id, outcome, message: verdict ? attribute(verdict[2], 'message') : '' });
  }
  return cases;
}

/** Counts by outcome, and what makes the run fail: failures, errors, unexpected skips, or no test at all. */
export function judgeRun(cases, alwaysSkipped = ALWAYS_SKIPPED) {
  const counts = { passed: 0, skipped: 0, failed: 0, error: 0 };
  for (const { outcome } of cases) counts[outcome] += 1;
  const problems = [];
  if (cases.length === 0) problems.push('no test ran');
  for (const { id, outcome, message } of cases) {
    if (outcome === 'failed' || outcome === 'error') problems.push(`${outcome}: ${id}`);
    if (outcome === 'skipped' && !alwaysSkipped.has(id)) problems.push(`skipped: ${id}${message ? ` (${message})` : ''}`);
  }
  return { counts, problems };
}
