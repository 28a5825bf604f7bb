#!/usr/bin/env python3
"""certomancer's command line, with an Animator whose clock has no fraction of a second.

Takes the same arguments as `certomancer` (e.g. `--config C --service-url-prefix U animate --port P`).

The Animator (certomancer 0.16.0, certomancer/integrations/animator.py) answers every request at
`Animator.at_time(request)`: the X-Certomancer-Fake-Time header's time when the request has one,
else the real time, `datetime.now(tz=timezone.utc)`, with its microseconds. That time becomes the OCSP
responses' producedAt, thisUpdate and nextUpdate and the time stamps' genTime, which asn1crypto writes
as a GeneralizedTime with a fraction ("20261202051459.8094Z"); NSS (pdfsig) rejects such OCSP
responses. certomancer has no option for it (neither the configuration nor the command line), so
this subclass drops the microseconds, and `animate` (which looks the class up when it runs) serves it.
CRLs need nothing: their thisUpdate and nextUpdate are the issuer's notBefore plus whole periods of
the repository's `simulated-update-schedule`.
"""
from certomancer.cli import cli
from certomancer.integrations import animator


class WholeSecondAnimator(animator.Animator):
    def at_time(self, request):
        return super().at_time(request).replace(microsecond=0)


animator.Animator = WholeSecondAnimator

if __name__ == "__main__":
    cli(prog_name="certomancer")
