/**
 * The core kinds without a controller of their own: Services (cluster IP and node ports
 * allocated, port defaults), Secrets (stringData folded into base64 data), Namespaces (Active,
 * with their name label), PersistentVolumeClaims (bound at once: the test cluster provisions
 * any claim).
 */
import type { Obj } from '../store.ts';
import type { Behaviour } from './behaviour.ts';
import { asArray, labelName, required } from './validation.ts';

export const service: Behaviour = {
  // An update that leaves out the allocated cluster IP and node ports keeps them, as the real server does.
  carry(obj, old) {
    obj.spec ??= {};
    if (!obj.spec.clusterIP && old.spec?.clusterIP) {
      obj.spec.clusterIP = old.spec.clusterIP;
      obj.spec.clusterIPs ??= old.spec.clusterIPs;
    }
    for (const p of asArray(obj.spec.ports)) {
      const was = asArray(old.spec?.ports).find(
        (o) => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'),
      );
      if (!p.nodePort && was?.nodePort) p.nodePort = was.nodePort;
    }
  },
  defaults(obj, alloc) {
    obj.spec ??= {};
    const spec = obj.spec;
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (spec.type !== 'ExternalName') {
      if (spec.clusterIP !== 'None') spec.clusterIP ??= alloc.clusterIp();
      spec.clusterIPs ??= [spec.clusterIP];
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
      spec.internalTrafficPolicy ??= 'Cluster';
    }
    for (const p of asArray(spec.ports)) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
      if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && !p.nodePort)
        p.nodePort = alloc.nodePort();
    }
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
  },
  validate(obj, old) {
    if (old?.spec?.clusterIP && obj.spec?.clusterIP !== old.spec.clusterIP) {
      return [
        {
          field: 'spec.clusterIPs[0]',
          message: `Invalid value: []string{${JSON.stringify(obj.spec?.clusterIP)}}: may not change once set`,
        },
      ];
    }
    const ports = asArray(obj.spec?.ports);
    if (obj.spec?.type !== 'ExternalName' && obj.spec?.clusterIP !== 'None' && !ports.length)
      return [required('spec.ports')];
    return labelName(obj.metadata.name);
  },
  initialStatus: () => ({ loadBalancer: {} }),
};

export const secret: Behaviour = {
  defaults(obj) {
    obj.type ??= 'Opaque';
    if (obj.stringData) {
      obj.data ??= {};
      for (const [k, v] of Object.entries(obj.stringData as Obj))
        obj.data[k] = Buffer.from(String(v)).toString('base64');
      delete obj.stringData;
    }
  },
};

export const namespace: Behaviour = {
  defaults(obj) {
    obj.metadata.labels = { ...obj.metadata.labels, 'kubernetes.io/metadata.name': obj.metadata.name };
    obj.spec ??= { finalizers: ['kubernetes'] };
  },
  validate: (obj) => labelName(obj.metadata.name),
  initialStatus: () => ({ phase: 'Active' }),
};

export const persistentVolumeClaim: Behaviour = {
  defaults(obj) {
    obj.spec ??= {};
    obj.spec.volumeMode ??= 'Filesystem';
    obj.spec.storageClassName ??= 'standard';
  },
  validate(obj) {
    const causes = [];
    if (!asArray(obj.spec?.accessModes).length) causes.push(required('spec.accessModes'));
    if (!obj.spec?.resources?.requests?.storage) causes.push(required('spec.resources[storage]'));
    return causes;
  },
  initialStatus: (obj: Obj) => ({
    phase: 'Bound',
    accessModes: obj.spec?.accessModes,
    capacity: { storage: obj.spec?.resources?.requests?.storage },
  }),
};
