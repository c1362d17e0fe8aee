#!/usr/bin/env python3
"""Bosun's fault management hooks for the ETSI conformance kit (scripts/conformance.sh passes
them after the kit's own, so they take their place; everything else is delegated to the kit's
Bosun hooks):

    fm_hooks.py prepare KIT_PREPARE BASE_URL OUT.yaml
        runs the kit's prepare hook, then gives the FM suite an alarm the way an operator gets
        one: a VNF instance of its own is instantiated and one of its servers crashed in the
        simulated VIM (POST /bosun/v1/sim/servers/{id}/crash); Bosun's health check raises the
        alarm. Writes alarmId and, for Alarms.robot, a SOL013 filter on that instance.
    fm_hooks.py trigger KIT_TRIGGER KEYWORD SUITE TEST
        the alarm notification tests' external actions: a fault (a fresh instance whose server
        crashes: AlarmNotification), the clear of the faults (the instances with open alarms are
        healed: AlarmClearedNotification), the alarm list rebuild (POST /bosun/v1/alarms/rebuild:
        AlarmListRebuiltNotification); any other keyword goes to the kit's trigger hook.
Standard library and the kit's hooks/prepare_example.py only.
"""
import json
import os
import subprocess
import sys
import time

ALARM_WAIT_S = 90


def kit_helpers(kit_hook):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(kit_hook)), '..', '..', 'hooks'))
    import prepare_example as P  # noqa: E402
    return P


def open_alarms(P, instance_id=None):
    query = '?filter=(eq,managedObjectId,%s)' % instance_id if instance_id else ''
    st, _h, body = P.call('GET', '/vnffm/v1/alarms' + query)
    if st != 200 or not isinstance(body, list):
        return []
    return [a for a in body if isinstance(a, dict) and not a.get('alarmClearedTime')]


def instantiated(P, vnfd_id, name):
    """A fresh VNF instance, INSTANTIATED; its id or None."""
    iid = P.create_instance(vnfd_id, name)
    occ = P.start_instantiate(iid, P.load_instantiate_body() or {'flavourId': 'simple'}) if iid else None
    if not occ:
        return None
    done = P.wait_for('/vnflcm/v1/vnf_lcm_op_occs/%s' % occ, 'operationState',
                      ('COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'))
    return iid if done and done.get('operationState') == 'COMPLETED' else None


def crash_one_server(P, iid):
    """Crashes the instance's first server; waits for its alarm. The alarm or None."""
    st, _h, servers = P.call('GET', '/bosun/v1/sim/servers?instanceId=%s' % iid)
    if st != 200 or not servers:
        return None
    P.call('POST', '/bosun/v1/sim/servers/%s/crash' % servers[0]['id'],
           {'reason': 'etsi-conformance: crashed to raise an alarm'})
    end = time.time() + ALARM_WAIT_S
    while time.time() < end:
        alarms = open_alarms(P, iid)
        if alarms:
            return alarms[0]
        time.sleep(1)
    P.log('  no alarm for instance %s within %d s' % (iid, ALARM_WAIT_S))
    return None


def vnfd_of(out_yaml):
    import yaml
    with open(out_yaml) as f:
        data = yaml.safe_load(f) or {}
    return data, (data.get('common') or {}).get('vnfdId')


def prepare(kit_prepare, base, out):
    rc = subprocess.call([sys.executable, kit_prepare, base, out])
    if rc != 0:
        return rc
    P = kit_helpers(kit_prepare)
    P.BASE = base.rstrip('/')
    data, vnfd_id = vnfd_of(out)
    P.log('fm: an alarm for the FM suite')
    iid = instantiated(P, vnfd_id, 'etsi-fm-alarm') if vnfd_id else None
    alarm = crash_one_server(P, iid) if iid else None
    if alarm:
        for section in ('sol003-vnffm', 'sol002-vnffm'):
            data.setdefault(section, {})['alarmId'] = alarm['id']
        data['sol003-vnffm/Alarms.robot'] = {
            'alarm_filter': 'filter',
            'nsInstanceId': '(eq,managedObjectId,%s)' % iid,
        }
        created = data['common'].setdefault('etsiHarnessCreated', [])
        created.append('INST %s' % iid)
    with open(out, 'w') as f:
        f.write('# written by %s\n' % os.path.basename(__file__))
        for section, values in data.items():
            f.write('%s:\n' % section)
            for k, v in (values or {}).items():
                f.write('  %s: %s\n' % (k, json.dumps(v)))
    return 0


def trigger(kit_trigger, keyword, *rest):
    kw = keyword.lower()
    if not any(word in kw for word in ('fault', 'alarm')):
        return subprocess.call([sys.executable, kit_trigger, keyword, *rest])
    P = kit_helpers(kit_trigger)
    P.BASE = (os.environ.get('ETSI_BASE_URL') or '').rstrip('/')
    print('fm trigger: %s' % keyword, flush=True)
    if 'rebuild' in kw:
        st, _h, _b = P.call('POST', '/bosun/v1/alarms/rebuild', {})
        return 0 if st == 200 else 1
    if 'clear' in kw:
        for iid in sorted({a['managedObjectId'] for a in open_alarms(P)}):
            P.call('POST', '/vnflcm/v1/vnf_instances/%s/heal' % iid, {'cause': 'etsi-conformance: clear the fault'})
        return 0
    path = os.path.join(os.environ.get('ETSI_OUT') or '', 'prepared-vars.yaml')
    _data, vnfd_id = vnfd_of(path) if os.path.isfile(path) else ({}, None)
    iid = instantiated(P, vnfd_id, 'etsi-fm-trigger') if vnfd_id else None
    return 0 if iid and crash_one_server(P, iid) else 1


def main(argv):
    if len(argv) >= 5 and argv[1] == 'prepare':
        return prepare(argv[2], argv[3], argv[4])
    if len(argv) >= 4 and argv[1] == 'trigger':
        return trigger(argv[2], *argv[3:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
