/**
 * One Alertmanager alert → what it asks of the alarm domain, with the labels and annotations the
 * Prometheus plugin of the design Bosun follows uses:
 *   labels      function_type (vnffm, or auto_heal: the alarm also asks for an automatic heal;
 *               absent: vnffm), vnf_instance_id, perceived_severity (required when firing),
 *               event_type (default EQUIPMENT_ALARM), faulty_resource_type (default COMPUTE),
 *               heal_scope (vnfc, default, or vnf: heal the whole VNF), and the VNFC's labels
 *               (vnfc-match.ts); receiver_type is not needed
 *   annotations probable_cause (default: the alertname label), fault_type, fault_details
 *               (summary and description are kept as details too)
 * A firing alert raises (or refreshes) the alarm whose fingerprint is `alert:<fingerprint>`; a
 * resolved one clears it. A refusal says what to fix.
 */
import { Value } from '@sinclair/typebox/value';
import type { VnfInstanceRecord } from '../../lcm/model.ts';
import { EVENT_TYPES, FAULTY_RESOURCE_TYPES } from '../../notify/fm-filter.ts';
import type { HealScope } from '../autoheal/queue.ts';
import type { ClearSelector } from '../clear.ts';
import { RAISED_SEVERITIES, type RaiseAlarmInput } from '../model.ts';
import { matchVnfc } from './vnfc-match.ts';
import { type Alert, AlertSchema } from './webhook.ts';

/** Function types served elsewhere (performance management) or not at all. */
const FUNCTION_TYPES = ['vnffm', 'auto_heal'] as const;

export type AlertAction =
  | { raise: RaiseAlarmInput; heal?: HealScope }
  | { clear: ClearSelector & { managedObjectId: string; fingerprint: string } };

export class AlertRefused extends Error {}

/** Alerts of performance management: their own receivers (PM jobs and thresholds), not this one. */
const PM_FUNCTION_TYPES = ['vnfpm', 'vnfpm_threshold'];

const oneOf = (label: string, value: string, allowed: readonly string[]) => {
  if (!allowed.includes(value))
    throw new AlertRefused(`label ${label}="${value}" must be one of ${allowed.join(', ')}`);
  return value;
};

export const alarmFingerprint = (alert: Pick<Alert, 'fingerprint'>) => `alert:${alert.fingerprint}`;

/** Checks an alert's shape; the first problems when it is malformed. */
export function checkAlert(value: unknown): Alert {
  if (Value.Check(AlertSchema, value)) {
    if (Number.isNaN(Date.parse(value.startsAt))) throw new AlertRefused('startsAt is not a date-time');
    return value;
  }
  const problems = [...Value.Errors(AlertSchema, value)]
    .slice(0, 3)
    .map((e) => `${e.path || '/'}: ${e.message}`);
  throw new AlertRefused(`malformed alert: ${problems.join('; ')}`);
}

/** The instance an alert is about: the path's, else its vnf_instance_id label. */
export function alertInstanceId(alert: Alert, pathInstanceId: string | undefined): string {
  const label = alert.labels.vnf_instance_id;
  if (pathInstanceId) {
    if (label && label !== pathInstanceId)
      throw new AlertRefused(
        `label vnf_instance_id="${label}" is not the VNF instance of the URL, ${pathInstanceId}`,
      );
    return pathInstanceId;
  }
  if (!label)
    throw new AlertRefused('label vnf_instance_id is missing: which VNF instance is the alert about?');
  return label;
}

export function mapAlert(alert: Alert, instance: VnfInstanceRecord): AlertAction {
  const { labels } = alert;
  const annotations = alert.annotations ?? {};
  if (labels.function_type && PM_FUNCTION_TYPES.includes(labels.function_type))
    throw new AlertRefused(`function_type ${labels.function_type} is performance management: not an alarm`);
  const functionType = oneOf('function_type', labels.function_type ?? 'vnffm', FUNCTION_TYPES);
  const fingerprint = alarmFingerprint(alert);
  if (alert.status === 'resolved') {
    const ended =
      alert.endsAt && !Number.isNaN(Date.parse(alert.endsAt)) ? { clearedTime: alert.endsAt } : {};
    return { clear: { managedObjectId: instance.id, fingerprint, ...ended } };
  }
  const severity = labels.perceived_severity;
  if (!severity)
    throw new AlertRefused(`label perceived_severity is missing (one of ${RAISED_SEVERITIES.join(', ')})`);
  const match = matchVnfc(instance.instantiatedVnfInfo, labels);
  if (!('vnfc' in match)) {
    const tried = match.tried.length ? `: ${match.tried.join(', ')} name none` : '';
    throw new AlertRefused(`the alert names no VNFC of VNF instance ${instance.id}${tried}`);
  }
  const healScope = oneOf('heal_scope', labels.heal_scope ?? 'vnfc', ['vnfc', 'vnf']) as HealScope;
  const details = [
    annotations.fault_details,
    annotations.summary,
    annotations.description,
    `alertname: ${labels.alertname ?? ''}`,
    `fingerprint: ${alert.fingerprint}`,
  ].filter((d): d is string => typeof d === 'string' && d !== '' && d !== 'alertname: ');
  const raise: RaiseAlarmInput = {
    fingerprint,
    managedObjectId: instance.id,
    vnfcInstanceIds: [match.vnfcInfoId],
    rootCauseFaultyResource: {
      faultyResource: match.vnfc.computeResource,
      faultyResourceType: oneOf(
        'faulty_resource_type',
        labels.faulty_resource_type ?? 'COMPUTE',
        FAULTY_RESOURCE_TYPES,
      ) as RaiseAlarmInput['rootCauseFaultyResource']['faultyResourceType'],
    },
    perceivedSeverity: oneOf(
      'perceived_severity',
      severity,
      RAISED_SEVERITIES,
    ) as RaiseAlarmInput['perceivedSeverity'],
    eventTime: alert.startsAt,
    eventType: oneOf(
      'event_type',
      labels.event_type ?? 'EQUIPMENT_ALARM',
      EVENT_TYPES,
    ) as RaiseAlarmInput['eventType'],
    probableCause: annotations.probable_cause || labels.alertname || 'alert from monitoring',
    ...(annotations.fault_type ? { faultType: annotations.fault_type } : {}),
    faultDetails: details,
  };
  return functionType === 'auto_heal' ? { raise, heal: healScope } : { raise };
}
