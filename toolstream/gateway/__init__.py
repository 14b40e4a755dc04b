"""``toolstream gateway-check``: does a tool call survive a gateway that
translates one provider's stream into another wire format?

``serve`` plays each corpus case of one profile as the gateway's provider;
toolstream asks the gateway for the case in another format, records the
stream it sends back, validates it with the reference as a fixture of that
format and compares its calls with the case's reference verdict.  See
``docs/gateways.md``.

* :mod:`.classify` -- the classifications and the call comparison;
* :mod:`.downstream` -- one request builder per downstream format, one table;
* :mod:`.exchange` -- one request, its answer recorded raw;
* :mod:`.judge` -- each side's verdict;
* :mod:`.gateways`, :mod:`.process` -- the gateway under test (a URL, a
  command the run starts and stops);
* :mod:`.litellm` -- the LiteLLM proxy recipe;
* :mod:`.run`, :mod:`.results` -- the run and its results.
"""

from toolstream.gateway.classify import Classification, IdHandling, Mismatch
from toolstream.gateway.downstream import DOWNSTREAMS
from toolstream.gateway.gateways import CommandGateway, Gateway, UrlGateway
from toolstream.gateway.process import GatewayStartError
from toolstream.gateway.results import FAIL_ON, GatewayResult
from toolstream.gateway.run import CaseOutcome, check

__all__ = [
    "DOWNSTREAMS",
    "FAIL_ON",
    "CaseOutcome",
    "Classification",
    "CommandGateway",
    "Gateway",
    "GatewayResult",
    "GatewayStartError",
    "IdHandling",
    "Mismatch",
    "UrlGateway",
    "check",
]
