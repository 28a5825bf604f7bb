"""pyHanko's AdES long-term validation (ETSI EN 319 102-1 §5.6.3) of every signature of a PDF,
with revocation information required and, with --offline, only what the document embeds (the
online-fetching rule LOCAL_ONLY; `pyhanko sign adesverify` has no switch for it).

Usage: pyhanko_ades_lta.py FILE ROOT.pem [--offline] [--at ISO-8601]
Prints one line per signature: `FIELD:SUBINDICATION:best signature time`, e.g.
`Signature1:OK:2026-12-02T05:33:27+00:00`.
"""
import asyncio
import sys
from datetime import datetime

from asn1crypto import pem, x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation.ades import ades_lta_validation
from pyhanko.sign.validation.policy_decl import (
    PdfSignatureValidationSpec,
    RevinfoOnlineFetchingRule,
    RevocationInfoGatheringSpec,
    SignatureValidationSpec,
)
from pyhanko_certvalidator.context import CertValidationPolicySpec
from pyhanko_certvalidator.ltv.types import ValidationTimingInfo
from pyhanko_certvalidator.policy_decl import REQUIRE_REVINFO, CertRevTrustPolicy, FreshnessReqType
from pyhanko_certvalidator.registry import SimpleTrustManager


def main():
    path, root_path = sys.argv[1], sys.argv[2]
    offline = "--offline" in sys.argv
    at = sys.argv[sys.argv.index("--at") + 1] if "--at" in sys.argv else None
    _, _, der = pem.unarmor(open(root_path, "rb").read())
    root = x509.Certificate.load(der)
    rule = RevinfoOnlineFetchingRule.LOCAL_ONLY if offline else RevinfoOnlineFetchingRule.NO_HISTORICAL_FETCH
    spec = PdfSignatureValidationSpec(
        SignatureValidationSpec(
            cert_validation_policy=CertValidationPolicySpec(
                trust_manager=SimpleTrustManager.build(trust_roots=[root]),
                # Revocation information counts when it was issued close enough to the validation it
                # serves (pyHanko's own PAdES-LTA tests use this rule).
                revinfo_policy=CertRevTrustPolicy(
                    REQUIRE_REVINFO, freshness_req_type=FreshnessReqType.MAX_DIFF_REVOCATION_VALIDATION
                ),
            ),
            revinfo_gathering_policy=RevocationInfoGatheringSpec(online_fetching_rule=rule),
        )
    )
    timing = None
    if at:
        moment = datetime.fromisoformat(at)
        timing = ValidationTimingInfo(validation_time=moment, best_signature_time=moment, point_in_time_validation=False)
    reader = PdfFileReader(open(path, "rb"))
    for signature in reader.embedded_regular_signatures:
        result = asyncio.run(ades_lta_validation(signature, spec, timing_info=timing))
        best = result.best_signature_time.isoformat() if result.best_signature_time else "-"
        print(f"{signature.field_name}:{result.ades_subindic.name}:{best}")


main()
