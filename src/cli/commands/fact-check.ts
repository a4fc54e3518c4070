import { UsageError } from '../../api/errors.js';
import type { ApiRecord } from '../../output/types.js';
import { FACT_CHECK_PARAMS } from '../../params/fact-check-params.js';
import type { ParamDef } from '../../params/types.js';
import { buildRequestBody } from '../../params/validate.js';
import { type ApiOperation, type CommandSpec, type RawOption, summaryOf } from '../command-spec.js';
import { chooseFormat } from '../export/export-pages.js';
import { exportList } from '../export/single-record.js';

const DEFS: readonly ParamDef[] = FACT_CHECK_PARAMS;
const byName = new Map(DEFS.map((d) => [d.name, d]));

/** The table's short view of a claim: verdict, confidence and how much evidence there is. */
function row(claim: ApiRecord): ApiRecord {
  const evidence = Array.isArray(claim['evidence']) ? (claim['evidence'] as ApiRecord[]) : [];
  return {
    verdict: claim['verdict'],
    confidence: claim['confidence'],
    claim: claim['claim'],
    evidence: evidence.length,
    supports: evidence.filter((e) => e['stance'] === 'supports').length,
    refutes: evidence.filter((e) => e['stance'] === 'refutes').length,
  };
}

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/fact-check',
  returns: 'records',
  tool: { name: 'fact_check' },
};

export const factCheck: CommandSpec<RawOption> = {
  name: 'fact-check',
  group: 'search',
  api: API,
  summary: summaryOf('verdicts on the claims of an article, a text or one claim', API),
  description:
    'Give exactly one of --id, --text or --claim. Each claim is a record (verdict, confidence, explanation, evidence); the summary goes to stderr. Not on the Free plan.',
  params: DEFS,
  raw: true,
  examples: [
    'news fact-check --claim "The central bank raised interest rates"',
    'news fact-check --id 500000002 --max-claims 3 -f json',
  ],
  async run(input, runtime) {
    const body = buildRequestBody(input.params, {
      now: runtime.io.now(),
      lookup: (name) => byName.get(name),
    });
    const inputs = ['id', 'text', 'claim'].filter((name) => body[name] !== undefined);
    if (inputs.length !== 1) {
      throw new UsageError(
        inputs.length === 0
          ? 'fact-check needs one of --id, --text or --claim'
          : `fact-check takes one input, got ${inputs.map((n) => `--${n}`).join(' and ')}`,
        { hint: 'the service would silently check only the first of id, text, claim' },
      );
    }
    const spec = { method: API.method, path: API.path, body };
    const response = await runtime.send<unknown>(spec, input.options.raw === true);
    if (response === null) return;
    const answer = (
      typeof response.body === 'object' && response.body !== null ? response.body : {}
    ) as ApiRecord;
    const claims = (Array.isArray(answer['claims']) ? answer['claims'] : []).filter(
      (c): c is ApiRecord => typeof c === 'object' && c !== null && !Array.isArray(c),
    );
    const summary = answer['summary'] as ApiRecord | undefined;
    if (summary !== undefined) {
      runtime.report.notice(
        `overall: ${String(summary['overall_verdict'])} (confidence ${String(summary['overall_confidence'])}), ${String(summary['claims_checked'])} of ${String(summary['claims_total'])} claims checked`,
      );
    }
    const table =
      (await chooseFormat(runtime)) === 'table' && runtime.settings.fields === undefined;
    await exportList(runtime, table ? claims.map(row) : claims, 'generic', 'news fact-check');
  },
};
