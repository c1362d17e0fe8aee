/**
 * Certificates for signature checks: PEM/DER parsing (trust anchors, ETSI-Entry-Certificate,
 * per-artifact certificates), readable subject names and validity checks, on pkijs.
 */
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** Every certificate in a PEM bundle, or the single DER certificate when there are no PEM markers. */
export function parseCertificates(data: string | Uint8Array): pkijs.Certificate[] {
  const text = typeof data === 'string' ? data : Buffer.from(data).toString('latin1');
  const pems = [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  const ders =
    pems.length > 0
      ? pems.map((m) => Buffer.from(m[1].replace(/\s+/g, ''), 'base64'))
      : [typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data)];
  return ders.map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der)));
}

/** Like parseCertificates, but a bundle that does not parse yields [] and a reason instead of throwing. */
export function tryParseCertificates(data: string | Uint8Array): {
  certificates: pkijs.Certificate[];
  error?: string;
} {
  try {
    return { certificates: parseCertificates(data) };
  } catch (err) {
    return { certificates: [], error: (err as Error).message };
  }
}

export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

const NAME_OIDS: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '1.2.840.113549.1.9.1': 'E',
};

/** "CN=Acme Signer, O=Acme" — what messages show to name a certificate. */
export function nameOf(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map(
      (tv) => `${NAME_OIDS[tv.type] ?? tv.type}=${(tv.value.valueBlock as { value?: unknown }).value ?? ''}`,
    )
    .join(', ');
}

export function subjectOf(cert: pkijs.Certificate): string {
  return nameOf(cert.subject);
}

/** Undefined when valid at `when`, else why not (expired / not yet valid), naming the certificate. */
export function validityProblem(cert: pkijs.Certificate, when: Date): string | undefined {
  const notBefore = cert.notBefore.value;
  const notAfter = cert.notAfter.value;
  if (when > notAfter) return `certificate "${subjectOf(cert)}" expired on ${notAfter.toISOString()}`;
  if (when < notBefore)
    return `certificate "${subjectOf(cert)}" is not valid before ${notBefore.toISOString()}`;
  return undefined;
}

/** The certificate a CMS signer identifies (issuer + serial, or subject key identifier). */
export function findSignerCertificate(
  signerInfo: pkijs.SignerInfo,
  certificates: pkijs.Certificate[],
): pkijs.Certificate | undefined {
  const sid = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
  }
  // subjectKeyIdentifier form: compare with the certificates' SKI extension.
  const wanted = Buffer.from((sid as asn1js.OctetString).valueBlock.valueHexView).toString('hex');
  return certificates.find((c) =>
    (c.extensions ?? []).some(
      (e) =>
        e.extnID === '2.5.29.14' &&
        Buffer.from((e.parsedValue as asn1js.OctetString)?.valueBlock.valueHexView ?? []).toString('hex') ===
          wanted,
    ),
  );
}
