"""Amazon Bedrock InvokeModelWithResponseStream:
``POST /model/{modelId}/invoke-with-response-stream``.

The same binary event-stream as ConverseStream (:mod:`.bedrock`): an item
``{"chunk": {"bytes": "<base64>"}}`` becomes an ``event`` frame with
``:event-type: chunk`` and ``{"bytes": ...}`` as its JSON payload, the
base64 kept exactly as the case holds it (so a cut or corrupted inner
payload is served as it is); an item whose type ends in ``Exception`` is an
``exception`` frame.  The non-streaming ``/model/{modelId}/invoke`` gets a
``ValidationException``; errors as for ConverseStream.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolstream.serve.endpoints.bedrock import BedrockConverseStream


class BedrockInvokeWithResponseStream(BedrockConverseStream):
    title = "Bedrock InvokeModelWithResponseStream"
    path = "/model/{modelId}/invoke-with-response-stream"
    route = re.compile(r"/model/(?P<model>[^/]+)/(?P<operation>invoke-with-response-stream|invoke)")

    def not_streaming(self, body: Mapping[str, Any], match: re.Match[str]) -> str | None:
        if match.group("operation") != "invoke-with-response-stream":
            return (
                "only InvokeModelWithResponseStream is served: call"
                " invoke_model_with_response_stream (POST .../invoke-with-response-stream)"
            )
        return None
