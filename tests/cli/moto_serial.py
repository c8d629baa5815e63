"""moto's S3 server answering one request at a time, for the shared-
history tests (tests/cli/shared_history.rs).

`moto_server` serves each request on a thread of its own, and its
`If-None-Match: *` check and the write after it are not one step: 16
racing PUTs of one key can both be told they created it (two winners
for 1 key in 30, benches/history-s3.md). AWS S3, MinIO and R2 document
that create as atomic, and nvcmp's many-writer rules rest on it. Served
one request at a time, moto's create is atomic too, so the tests check
nvcmp against the server S3 promises to be, not against a race of the
test server's own.

Usage: python moto_serial.py HOST PORT (the python of moto's venv)
"""
import sys

from moto.server import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import run_simple

host, port = sys.argv[1], int(sys.argv[2])
app = DomainDispatcherApplication(create_backend_app)
run_simple(host, port, app, threaded=False, use_reloader=False, use_debugger=False)
