"""pyHanko's AdES validation (ETSI EN 319 102-1) of every signature of a PDF, with revocation
information required: the validation process for signatures providing long-term availability
(§5.6.3, `ades_lta_validation`, the default) or for signatures with time (§5.5, `--process with-time`,
the DSS's content given to it as pyHanko's LTA process does). `pyhanko sign adesverify` runs the former
but prints pyHanko's own status (INTACT:TRUSTED…), not the AdES indication, and cannot keep to the
document's own material; this script prints the indication and, with --offline, uses only what the
document embeds (the online-fetching rule LOCAL_ONLY).

Usage: pyhanko_ades_lta.py FILE ROOT.pem [--offline] [--at ISO-8601] [--process lta|with-time] [--as-is]
Prints one line per signature: `FIELD:INDICATION:SUBINDICATION:best signature time`, e.g.
`Signature1:PASSED:OK:2026-12-02T05:33:27+00:00` or `Signature1:INDETERMINATE:NO_POE:…`.

--at ISO validates as at that time: the validation time, and also the clock pyHanko reads for "now"
(the time of a proof of existence it has no earlier evidence for, a control time's start), as
pyHanko's own tests do with freezegun. Revocation information fetched (without --offline) is as of
the real time.

The validation policy is pyHanko's own tests' (pyhanko/tests/test_ades_validation.py,
DEFAULT_REVINFO_POLICY: REQUIRE_REVINFO, FreshnessReqType.MAX_DIFF_REVOCATION_VALIDATION, the
freshness of each response its nextUpdate − thisUpdate), with two additions that --as-is leaves out:

1. Time-stamping units (`ts_cert_validation_policy`: the paths of the signature time-stamp's and the
   document time-stamps' authorities): their status, as the document embeds it, counts however old
   it is (TSA_STATUS_FRESHNESS). The LTA process validates the newest document time-stamp at the
   validation time (§5.6.3: the evidence record's last time-stamp at the current time); nothing
   proves a later existence of what it covers, so its authority's status cannot slide back in time
   to when it was issued, and offline nothing newer can be had. With the responses' own freshness
   (10 minutes from certomancer) that time-stamp fails from ten minutes after it was made, the chain
   of proofs of existence with it, and the answer is NO_POE. The signer's path (and its responders')
   keeps the responses' own freshness: the time slide (§5.6.2.1) brings the control time back to
   thisUpdate + 10 minutes, and the certificates and responses the DSS holds must have a proof of
   existence before it, which only a document time-stamp over the DSS gives. The price: an
   authority's control time never slides back either, so this policy does not fit a validation
   after a time-stamping unit's certificate expired (2035-12-31 for certomancer's `tsa`).

2. An OCSP response signed by the trust anchor itself (certomancer's root answers for the
   intermediate) is not asked for revocation information about the anchor. pyHanko 0.38's time slide
   (pyhanko_certvalidator/ltv/time_slide.py, `_time_slide`) recurses into the responder's path,
   which `_delegated_ocsp_response_path` (revinfo/validate_ocsp.py) makes with
   `ee_path.truncate_to_and_append(issuer.certificate, responder_cert)`: for the root, a path whose
   trust anchor and leaf are both the root (pkix_len 1). The loop then treats the root as an end
   entity and, finding no CRL or OCSP response about it, raises
   `InsufficientRevinfoError("No revocation info from before … found for certificate … Root CA")`:
   past validation fails and the answer is NO_POE. Its CRL branch skips such issuers ("don't bother
   checking issuers that already appear in the chain of trust"); the OCSP branch does not. pyHanko's
   own tests never meet it: in their PKI (pyhanko_testing_commons' certomancer.yml, `testing-ca`) the
   intermediate's status is the root's CRL and the one OCSP responder is a delegated one
   (`interm-ocsp`, id-pkix-ocsp-nocheck). The correction below returns the control time unchanged
   for a path made of the trust anchor alone, as path validation (RFC 5280 §6.1) never checks an
   anchor's status; nothing else of the time slide changes.
"""
import asyncio
import dataclasses
import datetime as _datetime
import sys
from datetime import timedelta

from asn1crypto import pem, x509

# Time-stamping units' embedded status counts for this long after it was issued (see 1. above).
TSA_STATUS_FRESHNESS = timedelta(days=3653)


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


path, root_path = sys.argv[1], sys.argv[2]
offline = "--offline" in sys.argv
as_is = "--as-is" in sys.argv
process = option("--process", "lta")
if process not in ("lta", "with-time"):
    sys.exit(f"unknown --process {process}")
at = option("--at")
moment = _datetime.datetime.fromisoformat(at.replace("Z", "+00:00")) if at else None
if moment is not None and moment.tzinfo is None:
    sys.exit("--at needs a time zone, e.g. 2029-06-01T00:00:00+00:00")

if moment is not None:
    # The clock stopped at --at in the modules that read it (freezegun's way: a datetime class whose
    # now() answers the moment and which still recognises every datetime).
    _real = _datetime.datetime

    class _Clock(type):
        def __instancecheck__(cls, instance):
            return isinstance(instance, _real)

        def __subclasscheck__(cls, subclass):
            return issubclass(subclass, _real)

    class _Frozen(_real, metaclass=_Clock):
        @classmethod
        def now(cls, tz=None):
            return moment.astimezone(tz) if tz is not None else moment.astimezone().replace(tzinfo=None)

        @classmethod
        def utcnow(cls):
            return moment.astimezone(_datetime.timezone.utc).replace(tzinfo=None)

    import pyhanko.sign.validation.ades
    import pyhanko_certvalidator.context
    import pyhanko_certvalidator.ltv.ades_past
    import pyhanko_certvalidator.ltv.poe
    import pyhanko_certvalidator.ltv.types

    for module in (
        pyhanko.sign.validation.ades,
        pyhanko_certvalidator.context,
        pyhanko_certvalidator.ltv.ades_past,
        pyhanko_certvalidator.ltv.poe,
        pyhanko_certvalidator.ltv.types,
    ):
        module.datetime = _Frozen

if not as_is:
    import pyhanko_certvalidator.ltv.time_slide as time_slide

    _time_slide = time_slide._time_slide

    async def _time_slide_past_anchor(path, init_control_time, *arguments, **keywords):
        anchor = path.trust_anchor.authority
        anchor_certificate = getattr(anchor, "certificate", None)
        if (
            path.pkix_len == 1
            and path.leaf is not None
            and anchor_certificate is not None
            and path.leaf.dump() == anchor_certificate.dump()
        ):
            return init_control_time
        return await _time_slide(path, init_control_time, *arguments, **keywords)

    time_slide._time_slide = _time_slide_past_anchor

from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation.ades import _dss_to_local_knowledge, ades_lta_validation, ades_with_time_validation
from pyhanko.sign.validation.policy_decl import (
    PdfSignatureValidationSpec,
    RevinfoOnlineFetchingRule,
    RevocationInfoGatheringSpec,
    SignatureValidationSpec,
)
from pyhanko.sign.validation.status import PdfSignatureStatus
from pyhanko_certvalidator.context import CertValidationPolicySpec
from pyhanko_certvalidator.ltv.types import ValidationTimingInfo
from pyhanko_certvalidator.policy_decl import REQUIRE_REVINFO, CertRevTrustPolicy, FreshnessReqType
from pyhanko_certvalidator.registry import SimpleTrustManager


def main():
    _, _, der = pem.unarmor(open(root_path, "rb").read())
    trust = SimpleTrustManager.build(trust_roots=[x509.Certificate.load(der)])
    rule = RevinfoOnlineFetchingRule.LOCAL_ONLY if offline else RevinfoOnlineFetchingRule.NO_HISTORICAL_FETCH
    policy = CertValidationPolicySpec(
        trust_manager=trust,
        revinfo_policy=CertRevTrustPolicy(
            REQUIRE_REVINFO, freshness_req_type=FreshnessReqType.MAX_DIFF_REVOCATION_VALIDATION
        ),
    )
    authorities = (
        None
        if as_is
        else CertValidationPolicySpec(
            trust_manager=trust,
            revinfo_policy=CertRevTrustPolicy(
                REQUIRE_REVINFO,
                freshness=TSA_STATUS_FRESHNESS,
                freshness_req_type=FreshnessReqType.MAX_DIFF_REVOCATION_VALIDATION,
            ),
        )
    )
    spec = SignatureValidationSpec(
        cert_validation_policy=policy,
        ts_cert_validation_policy=authorities,
        revinfo_gathering_policy=RevocationInfoGatheringSpec(online_fetching_rule=rule),
    )
    timing = (
        ValidationTimingInfo(validation_time=moment, best_signature_time=moment, point_in_time_validation=False)
        if moment
        else None
    )
    reader = PdfFileReader(open(path, "rb"))
    for signature in reader.embedded_regular_signatures:
        if process == "lta":
            result = asyncio.run(ades_lta_validation(signature, PdfSignatureValidationSpec(spec), timing_info=timing))
        else:
            signature.compute_integrity_info(None, skip_diff=True)
            with_dss = dataclasses.replace(spec, local_knowledge=_dss_to_local_knowledge(reader))
            result = asyncio.run(
                ades_with_time_validation(
                    signature.signed_data,
                    with_dss,
                    timing_info=timing,
                    raw_digest=signature.compute_digest(),
                    extra_status_kwargs=signature.summarise_integrity_info(),
                    status_cls=PdfSignatureStatus,
                )
            )
        best = result.best_signature_time.isoformat() if result.best_signature_time else "-"
        indication = result.ades_subindic
        print(f"{signature.field_name}:{indication.status.name}:{indication.name}:{best}")


main()
