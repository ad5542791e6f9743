"""Reads raw messages as mail clients do and prints what they show.

Used by notify's TestInboxHeaders: each argument is a file holding one
message as the SMTP sink received it. For each, one JSON object on one
line: the headers decoded by Python's email package with policy=default
(RFC 5322 unfolding, RFC 2047 decoding), and the defects it found.
"""
import email
import email.policy
import json
import sys


def shown(msg, name):
    h = msg[name]
    return None if h is None else str(h)


for path in sys.argv[1:]:
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    out = {"file": path, "defects": [repr(d) for d in msg.defects]}
    for name in ("Subject", "References", "In-Reply-To", "Precedence", "List-Unsubscribe",
                 "List-Unsubscribe-Post", "Auto-Submitted", "Message-ID"):
        out[name] = shown(msg, name)
        h = msg[name]
        if h is not None:
            out["defects"] += ["%s: %r" % (name, d) for d in h.defects]
    sender = msg["From"]
    out["From.display_name"] = sender.addresses[0].display_name
    out["From.addr_spec"] = sender.addresses[0].addr_spec
    out["defects"] += ["From: %r" % d for d in sender.defects]
    text = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    out["text"] = text.get_content() if text is not None else None
    out["html"] = html.get_content() if html is not None else None
    print(json.dumps(out, ensure_ascii=False))
