"""League players' PINs: pbkdf2-sha256, ``pbkdf2$<iterations>$<salt hex>$<hash hex>``.

The server keeps the whole hash; a table gets only the salt part (``pbkdf2$N$salt``),
hashes what was typed and lets the server compare (:func:`digest_for`). A table also
keeps its own hash of a PIN that was typed and accepted on it, to check it while the
server is out of reach (:func:`hash_pin`, :func:`verify`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

ITERATIONS = 120_000
PIN_RE = re.compile(r"^[0-9]{4,8}$")
SALT_RE = re.compile(r"^pbkdf2\$([0-9]{4,7})\$([0-9a-f]{16,64})$")


def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """The stored form of a 4-8 digit PIN (``ValueError`` for anything else)."""
    if not isinstance(pin, str) or not PIN_RE.match(pin):
        raise ValueError("a PIN is 4 to 8 digits")
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"pbkdf2${iterations}${salt.hex()}${digest.hex()}"


def digest_for(salt_part: str, pin: str) -> str:
    """The hash hex of ``pin`` under a ``pbkdf2$N$salt`` prefix (what the server compares)."""
    m = SALT_RE.match(salt_part or "")
    if m is None:
        raise ValueError(f"not a PIN salt: {salt_part!r}")
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(m[2]), int(m[1])).hex()


def verify(pin_hash: str, pin: str) -> bool:
    """True when ``pin`` matches the stored ``pin_hash`` (constant-time compare)."""
    head, _, want = (pin_hash or "").rpartition("$")
    try:
        got = digest_for(head, pin)
    except ValueError:
        return False
    return hmac.compare_digest(got, want)
