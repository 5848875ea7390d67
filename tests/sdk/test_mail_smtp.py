"""Sign-in mail through a real SMTP server on loopback.

`podlens serve` runs with `PODLENS_SMTP_URL` pointing at an aiosmtpd server started
here (with AUTH, so the URL's user and password are used); a sign-up request must
deliver one message to the address asked for, whose link validates the address and
opens a session. The SMTP password, API keys (right and wrong), the link's key and the
session cookie must appear in none of the server's output at debug level.
"""

from __future__ import annotations

import email
import json
import os
import re
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from email import policy

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

import conftest

USER = "mailer@podlens.test"
PASSWORD = "pw-9f3b7c1e"


class Collect:
    def __init__(self):
        self.envelopes = []

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append(envelope)
        return "250 OK"


def _authenticator(logins):
    def check(server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword):
            logins.append((auth_data.login.decode(), auth_data.password.decode()))
            ok = auth_data.login.decode() == USER and auth_data.password.decode() == PASSWORD
            return AuthResult(success=ok)
        return AuthResult(success=False, handled=False)

    return check


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _post(url: str, body: dict) -> tuple[int, dict, dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, dict(response.headers), json.load(response)


def test_sign_up_link_is_delivered_through_smtp(external):
    if external:
        pytest.skip("needs its own server configured for the test's SMTP server")
    handler, logins = Collect(), []
    port = _free_port()
    smtp = Controller(
        handler,
        hostname="127.0.0.1",
        port=port,
        authenticator=_authenticator(logins),
        auth_require_tls=False,
    )
    smtp.start()
    podlens = conftest._binary("PODLENS_BIN", conftest._target_dir() / "debug" / "podlens")
    with tempfile.TemporaryDirectory(prefix="podlens-smtp-") as data_dir, tempfile.TemporaryFile("w+") as log:
        url = f"smtp://{USER.replace('@', '%40')}:{PASSWORD}@127.0.0.1:{port}?tls=none&from=Podlens%20%3Cno-reply%40podlens.test%3E"
        api_key = conftest._podlens(
            "keys", "create", "--email", "keyholder@example.com", "--plan", "business", data_dir=data_dir
        ).stdout.strip().splitlines()[-1]
        wrong_key = api_key[:-6] + ("000000" if not api_key.endswith("000000") else "111111")
        secrets = {"the SMTP password": PASSWORD, "the API key": api_key, "a wrong API key": wrong_key}
        server = subprocess.Popen(
            [str(podlens), "serve", "--data-dir", data_dir, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            env={**os.environ, "PODLENS_SMTP_URL": url, "PODLENS_LOG": "debug"},
        )
        try:
            first = server.stdout.readline()
            base = re.search(r"listening on (http://127\.0\.0\.1:\d+)", first).group(1)
            status, _, answer = _post(f"{base}/api/v1/auth/sign-up", {"email": "New.Person@Example.com"})
            assert status == 200, answer
            deadline = time.time() + 15
            while not handler.envelopes and time.time() < deadline:
                time.sleep(0.1)
            assert len(handler.envelopes) == 1, "one message delivered"
            envelope = handler.envelopes[0]
            assert envelope.rcpt_tos == ["new.person@example.com"]
            assert envelope.mail_from == "no-reply@podlens.test"
            assert logins == [(USER, PASSWORD)]
            message = email.message_from_bytes(envelope.content, policy=policy.default)
            assert message["To"] == "new.person@example.com"
            body = message.get_body(preferencelist=("plain",)).get_content()
            link = re.search(r"(http://\S+)/sign-up/validate\?key=([A-Za-z0-9_-]+)", body)
            assert link, body
            assert link.group(1) == base
            status, headers, validated = _post(f"{base}/api/v1/auth/validate", {"key": link.group(2)})
            assert status == 200, validated
            cookie = headers.get("set-cookie", headers.get("Set-Cookie", ""))
            assert "HttpOnly" in cookie
            secrets["the sign-up link's key"] = link.group(2)
            secrets["the session cookie"] = cookie.split(";")[0].split("=", 1)[1]
            # Calls with the API key and with a wrong one, logged at debug level.
            for key, expected in ((api_key, 200), (wrong_key, 401)):
                request = urllib.request.Request(f"{base}/api/v1/teams/usage/current", headers={"Authorization": f"Bearer {key}"})
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        status = response.status
                except urllib.error.HTTPError as error:
                    status = error.code
                assert status == expected, (key == api_key, status)
            # Nothing lands in the outbox when SMTP is configured.
            assert not os.path.exists(os.path.join(data_dir, "outbox"))
        finally:
            server.terminate()
            server.wait(timeout=10)
            smtp.stop()
        log.seek(0)
        output = log.read()
        for what, secret in secrets.items():
            assert secret and secret not in output, f"{what} must never be logged"
        assert "mail sent" in output
