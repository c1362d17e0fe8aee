/**
 * Verification of one CMS (PKCS#7 SignedData) signature, detached or attached, with pkijs: the
 * signature over the content, the signing certificate's validity dates, and its chain to the
 * configured trust anchors. Returns a verdict with a reason a vendor can act on.
 *
 * With signed attributes (what every CMS tool writes) the content is only needed as a digest,
 * so a signed multi-GB image is checked by streaming it, never by loading it.
 */
import { createHash } from 'node:crypto';
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { HashAlgorithm } from '../../sol/hash-algorithms.ts';
import { findSignerCertificate, subjectOf, toArrayBuffer, validityProblem } from './trust.ts';

export interface CmsVerdict {
  valid: boolean;
  reason?: string;
  signer?: string;
}

/**
 * What the signature should cover: candidate byte strings (the manifest text is tried with and
 * without trailing blank lines, as vendors' tools differ on the separator), or a function
 * streaming the content's digest (large artifacts).
 */
export type SignedContent =
  | { bytes: Uint8Array[] }
  | {
      digest: (algorithm: HashAlgorithm) => Promise<string>;
      /** The content in memory, for the rare signature without signed attributes; absent when too large. */
      read?: () => Promise<Uint8Array>;
    };

export interface CmsCheckOptions {
  /** "the manifest", "artifact Scripts/install.sh": used in the mismatch reason. */
  what: string;
  /** Certificates shipped beside the signature (ETSI-Entry-Certificate, .cert, per-artifact Certificate). */
  extraCertificates?: pkijs.Certificate[];
  trustAnchors: pkijs.Certificate[];
  now?: Date;
}

const DIGEST_OIDS: Record<string, HashAlgorithm> = {
  '2.16.840.1.101.3.4.2.1': 'sha-256',
  '2.16.840.1.101.3.4.2.2': 'sha-384',
  '2.16.840.1.101.3.4.2.3': 'sha-512',
  '2.16.840.1.101.3.4.2.4': 'sha-224',
};
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const BASIC_CONSTRAINTS = '2.5.29.19';

/** The DER of a CMS given as PEM (`CMS` or `PKCS7` markers), bare base64, or DER bytes. */
export function cmsDer(data: string | Uint8Array): Uint8Array {
  if (typeof data !== 'string') {
    const text = Buffer.from(data).toString('latin1');
    return text.includes('-----BEGIN') ? cmsDer(text) : data;
  }
  const body = data.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
  return Buffer.from(body, 'base64');
}

export async function verifyCms(
  signature: string | Uint8Array,
  content: SignedContent,
  options: CmsCheckOptions,
): Promise<CmsVerdict> {
  const now = options.now ?? new Date();
  let signed: pkijs.SignedData;
  try {
    const info = pkijs.ContentInfo.fromBER(toArrayBuffer(cmsDer(signature)));
    if (info.contentType !== pkijs.ContentInfo.SIGNED_DATA) {
      return { valid: false, reason: `the signature is CMS ${info.contentType}, not SignedData` };
    }
    signed = new pkijs.SignedData({ schema: info.content });
  } catch (err) {
    return { valid: false, reason: `the CMS signature cannot be decoded: ${(err as Error).message}` };
  }
  if (signed.signerInfos.length === 0) return { valid: false, reason: 'the CMS signature has no signer' };
  const certificates = [
    ...(signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate),
    ...(options.extraCertificates ?? []),
  ];
  signed.certificates = certificates;
  const signerCert = findSignerCertificate(signed.signerInfos[0], certificates);
  if (!signerCert) {
    return {
      valid: false,
      reason: 'the signing certificate is neither in the signature nor in the package certificate file',
    };
  }
  const signer = subjectOf(signerCert);
  const holds = await signatureHolds(signed, signerCert, content);
  if (holds === 'content-too-large') {
    return {
      valid: false,
      signer,
      reason: `the signature of ${options.what} has no signed attributes, and the content is too large to check it in memory`,
    };
  }
  if (!holds) return { valid: false, signer, reason: `signature does not match ${options.what}` };
  const dates = validityProblem(signerCert, now);
  if (dates) return { valid: false, signer, reason: dates };
  if (options.trustAnchors.length === 0) {
    return {
      valid: false,
      signer,
      reason: `certificate "${signer}" is not issued by a trusted authority (no trust anchors are configured)`,
    };
  }
  if (!(await chainIsTrusted(signerCert, certificates, options.trustAnchors, now))) {
    return { valid: false, signer, reason: `certificate "${signer}" is not issued by a trusted authority` };
  }
  return { valid: true, signer };
}

/** Signature over the content (detached) or the embedded content (attached), chain aside. */
async function signatureHolds(
  signed: pkijs.SignedData,
  signerCert: pkijs.Certificate,
  content: SignedContent,
): Promise<boolean | 'content-too-large'> {
  const signerInfo = signed.signerInfos[0];
  const eContent = signed.encapContentInfo.eContent;
  const attached = eContent ? Buffer.from(eContent.getValue()) : undefined;
  // Attached: the embedded content must be the manifest itself.
  if (attached && 'bytes' in content && !content.bytes.some((c) => attached.equals(c))) return false;
  const candidates = attached ? [attached] : 'bytes' in content ? content.bytes : undefined;
  try {
    if (!signerInfo.signedAttrs) {
      // Rare (openssl -noattr): the signature is over the content itself, which must be in memory.
      let inMemory = candidates;
      if (!inMemory && 'read' in content) {
        if (!content.read) return 'content-too-large';
        inMemory = [await content.read()];
      }
      for (const data of inMemory ?? []) {
        if (
          await signed.verify({
            signer: 0,
            data: attached ? undefined : toArrayBuffer(data),
            checkChain: false,
          })
        ) {
          return true;
        }
      }
      return false;
    }
    const algorithm = DIGEST_OIDS[signerInfo.digestAlgorithm.algorithmId];
    const declared = signerInfo.signedAttrs.attributes.find((a) => a.type === MESSAGE_DIGEST)?.values[0] as
      | asn1js.OctetString
      | undefined;
    if (!algorithm || !declared) return false;
    const expected = Buffer.from(declared.valueBlock.valueHexView).toString('hex');
    const digests = candidates
      ? candidates.map((c) => createHash(algorithm.replace('-', '')).update(c).digest('hex'))
      : [await (content as { digest: (a: HashAlgorithm) => Promise<string> }).digest(algorithm)];
    if (!digests.includes(expected)) return false;
    const shaName = algorithm.toUpperCase();
    return await pkijs
      .getCrypto(true)
      .verifyWithPublicKey(
        signerInfo.signedAttrs.encodedValue,
        signerInfo.signature,
        signerCert.subjectPublicKeyInfo,
        signerInfo.signatureAlgorithm,
        signerInfo.signatureAlgorithm.algorithmId === RSA_ENCRYPTION ? shaName : undefined,
      );
  } catch {
    return false;
  }
}

/** The signer chains to a trust anchor, every certificate valid at `now` (pkijs chain engine). */
async function chainIsTrusted(
  signerCert: pkijs.Certificate,
  certificates: pkijs.Certificate[],
  trustAnchors: pkijs.Certificate[],
  now: Date,
): Promise<boolean> {
  const isCa = (c: pkijs.Certificate) =>
    (c.extensions ?? []).some(
      (e) => e.extnID === BASIC_CONSTRAINTS && (e.parsedValue as pkijs.BasicConstraints)?.cA,
    );
  const engine = new pkijs.CertificateChainValidationEngine({
    certs: [...certificates.filter((c) => c !== signerCert && isCa(c)), signerCert],
    trustedCerts: trustAnchors,
    checkDate: now,
  });
  try {
    return (await engine.verify()).result;
  } catch {
    return false;
  }
}
