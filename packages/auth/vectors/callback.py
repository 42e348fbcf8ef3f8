#!/usr/bin/env python3
"""Golden vector for callback signatures: base64(HMAC-SHA256(base64-decoded key, raw body bytes)),
computed with Python's standard library, independently of the TypeScript code.
Regenerate with:  python3 packages/auth/vectors/callback.py > packages/auth/vectors/callback.json
"""
import base64, hashlib, hmac, json

CUSTOMER_ID = "FFFFFFFF-EEEE-DDDD-1234-AB1234567890"
API_KEY = "ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw=="
BODY = ('{"status":{"code":200,"description":"Delivered to handset","updated_on":"2016-10-21T14:05:36.181346Z"},'
        '"reference_id":"B56259E45884010488343BAA15FB0002","verify":{"code_state":"UNKNOWN","code_entered":null},'
        '"sub_resource":"sms","note":"é"}')
sig = base64.b64encode(hmac.new(base64.b64decode(API_KEY, validate=True), BODY.encode("utf-8"), hashlib.sha256).digest()).decode()
print(json.dumps({"generator": "packages/auth/vectors/callback.py (Python hmac/hashlib/base64)", "customerId": CUSTOMER_ID,
                  "apiKey": API_KEY, "body": BODY, "signature": sig, "authorization": f"TSA {CUSTOMER_ID}:{sig}"},
                 indent=2, ensure_ascii=False))
