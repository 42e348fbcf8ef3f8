#!/usr/bin/env python3
"""Golden vectors for the string to sign, the signature and the Authorization header.

Computed independently of the TypeScript implementation: Python's standard library
(hmac, hashlib, base64) following part 5.3 of the interface document and the fixed protocol
decisions of DESIGN.md (no space after the colon, X-TS-Date leaves the Date line empty,
body followed by "\\n" only when non-empty, the resource never includes the query).

Regenerate with:  python3 packages/auth/vectors/generate.py > packages/auth/vectors/digest.json
"""
import base64, hashlib, hmac, json, re
from urllib.parse import urlsplit

CUSTOMER_ID = "FFFFFFFF-EEEE-DDDD-1234-AB1234567890"
API_KEY = "ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw=="
DATE = "Wed, 14 Dec 2016 18:20:12 GMT"
NONCE = "712cb7f8-9b4c-4a46-8a6b-b1c1bd1e1a0a"

def string_to_sign(method, url, content_type, date_header, date, ts_headers, body):
    method = method.upper()
    ct = "" if method in ("GET", "HEAD") or content_type is None else content_type
    date_line = date if date_header == "date" else ""
    unfold = lambda v: re.sub(r"\r?\n[ \t]+", " ", v).strip()
    # Sorted by NAME (not by the whole "name:value" line: "x-ts-a-b" sorts after "x-ts-a").
    lines = [k + ":" + unfold(v) + "\n" for k, v in sorted((k.lower(), v) for k, v in ts_headers.items())]
    s = f"{method}\n{ct}\n{date_line}\n" + "".join(lines)
    if body:
        s += body + "\n"
    return s + urlsplit(url).path

def case(name, description, method, url, content_type=None, body=None, algorithm="HMAC-SHA256",
         date_header="x-ts-date", nonce=NONCE, extra=None):
    ts = {"x-ts-auth-method": algorithm}
    if date_header == "x-ts-date":
        ts["x-ts-date"] = DATE
    if nonce is not None:
        ts["x-ts-nonce"] = nonce
    for k, v in (extra or {}).items():
        ts[k] = v
    sts = string_to_sign(method, url, content_type, date_header, DATE, ts, body)
    digest = hashlib.sha1 if algorithm == "HMAC-SHA1" else hashlib.sha256
    sig = base64.b64encode(hmac.new(base64.b64decode(API_KEY, validate=True), sts.encode("utf-8"), digest).digest()).decode()
    request = {"method": method, "url": url}
    if content_type is not None: request["contentType"] = content_type
    if body is not None: request["body"] = body
    if extra: request["headers"] = extra
    options = {"algorithm": algorithm, "dateHeader": date_header, "date": DATE, "nonce": nonce if nonce is not None else False}
    return {"name": name, "description": description, "request": request, "options": options,
            "expected": {"stringToSign": sts, "signature": sig, "authorization": f"TSA {CUSTOMER_ID}:{sig}"}}

FORM = "application/x-www-form-urlencoded"
BASE = "https://rest-api.telesign.com"
vectors = [
    case("post-form", "POST form body, X-TS-Date, nonce", "POST", BASE + "/v1/messaging", FORM,
         "phone_number=15555551234&message=Your%20code%20is%20123&message_type=OTP"),
    case("post-json-non-ascii", "POST JSON with non-ASCII text (UTF-8 signing)", "POST", BASE + "/v1/phoneid/15555551234",
         "application/json", '{"addons":{"contact":{}},"note":"Grüße, 東京 👋"}'),
    case("get", "GET: empty Content-Type line, no body", "GET", BASE + "/v1/messaging/0123456789ABCDEF0123456789ABCDEF"),
    case("get-query", "GET with a query: the query is never signed", "GET",
         BASE + "/v1/verify/0123456789ABCDEF0123456789ABCDEF?verify_code=57244"),
    case("date-header", "Date header instead of X-TS-Date (the official clients' layout)", "POST", BASE + "/v1/messaging", FORM,
         "phone_number=15555551234&message=hi&message_type=ARN", date_header="date"),
    case("get-date-header", "GET with the Date header", "GET", BASE + "/v1/voice/0123456789ABCDEF0123456789ABCDEF", date_header="date"),
    case("sha1", "HMAC-SHA1", "POST", BASE + "/v1/verify/sms", FORM, "phone_number=15555551234&verify_code=12345",
         algorithm="HMAC-SHA1"),
    case("extra-ts-headers", "extra X-TS headers: lower-cased, sorted, unfolded, trimmed", "POST", BASE + "/v1/messaging", FORM,
         "phone_number=15555551234&message=x&message_type=ARN",
         extra={"X-TS-Zeta": "  folded\r\n   value  ", "X-TS-Alpha": "1"}),
    case("prefix-names", "x-ts-a sorts before x-ts-a-b (sorted by name, not by line)", "POST", BASE + "/v1/messaging", FORM,
         "phone_number=15555551234&message=x&message_type=ARN", extra={"X-TS-A-B": "2", "X-TS-A": "1"}),
    case("no-nonce", "no X-TS-Nonce sent", "GET", BASE + "/v1/messaging/0123456789ABCDEF0123456789ABCDEF", nonce=None),
    case("empty-body", "POST with an empty body: the body element is omitted", "POST", BASE + "/v1/phoneid/15555551234", FORM, ""),
    case("path-as-sent", "percent-encoded path signed as sent", "GET", BASE + "/v1/messaging/ab%20cd"),
]
print(json.dumps({"generator": "packages/auth/vectors/generate.py (Python hmac/hashlib/base64)",
                  "customerId": CUSTOMER_ID, "apiKey": API_KEY, "vectors": vectors}, indent=2, ensure_ascii=False))
