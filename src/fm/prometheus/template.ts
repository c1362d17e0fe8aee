/**
 * The operator's alert-rule template (fm.prometheus.ruleTemplate): a YAML list of Prometheus
 * alerting rules written once per VNFC, with placeholders. The built-in one fires when the VNFC's
 * exporter is down or the simulated VIM reports its server down, with the labels the alert
 * receiver maps (function_type auto_heal, vnf_instance_id, vnfc_id, perceived_severity,
 * event_type), so a provisioned instance heals itself when auto-heal is on.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError } from '../../config/errors.ts';

export const DEFAULT_RULE_TEMPLATE = `- alert: VnfcDown
  expr: 'up{vnfc_id="{{vnfcId}}"} == 0 or bosun_sim_server_up{vnfc_id="{{vnfcId}}"} == 0'
  for: 0s
  labels:
    receiver_type: tacker
    function_type: auto_heal
    vnf_instance_id: '{{vnfInstanceId}}'
    vnfc_id: '{{vnfcId}}'
    vdu_id: '{{vduId}}'
    perceived_severity: CRITICAL
    event_type: EQUIPMENT_ALARM
  annotations:
    probable_cause: 'VNFC {{vnfcId}} of VDU {{vduId}} is down'
    fault_type: Server Down
    fault_details: 'target {{target}}, host {{hostname}}'
`;

export type RuleTemplate = Record<string, unknown>[];

/** Parses a template's text; ConfigError naming `source` when it is not a list of rules. */
export function parseRuleTemplate(text: string, source: string): RuleTemplate {
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    throw new ConfigError(`fm.prometheus.ruleTemplate ${source}: not YAML: ${(err as Error).message}`);
  }
  const rules = Array.isArray(value) ? value : undefined;
  if (!rules?.length || !rules.every((r) => r && typeof r === 'object' && typeof r.alert === 'string'))
    throw new ConfigError(
      `fm.prometheus.ruleTemplate ${source}: must be a YAML list of alerting rules, each with alert: and expr:`,
    );
  return rules as RuleTemplate;
}

/** The configured template (read once, at start), or the built-in one. */
export function loadRuleTemplate(path: string): RuleTemplate {
  if (!path) return parseRuleTemplate(DEFAULT_RULE_TEMPLATE, '(built-in)');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`fm.prometheus.ruleTemplate: cannot read ${path}: ${(err as Error).message}`);
  }
  return parseRuleTemplate(text, path);
}
