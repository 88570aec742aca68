"""Sentences people write around values in their notes; `{v}` is where the value goes.

Kinds not listed here are written with the generic bullet forms in _blind_docs.
"""

from __future__ import annotations

__all__ = ["FILL_EXTRA", "PROSE"]

PROSE: dict[str, list[str]] = {
    "k8s_pod_name": [
        "- `{v}` keeps restarting (OOMKilled); bumped the limit to 512Mi.",
        "Tail logs with `kubectl logs {v} -c app --since=1h`.",
        "- {person} saw the crash loop on {v} first.",
    ],
    "git_commit_sha": [
        "- Fixed in {v}, deployed to staging on {date}.",
        "Bisected the regression to {v}.",
        "- Revert {v} if the export job slows down again.",
    ],
    "timestamp": ["- Last rotation: {v}", "The token expires at {v}; set a reminder.", "- Incident started {v}."],
    "uuid": [
        "- Tenant id for the pilot customer: {v}",
        "Failing request id {v} — see the logs.",
        "- Subscription: {v}",
    ],
    "phone_number": ["- On-call phone: {v}", "Call {person} at {v} if paging fails.", "- Support line: {v}"],
    "iban": ["- Payout account (IBAN): {v}", "Refunds for {project} go to {v}.", "- Rent goes to {v} on the 1st."],
    "css_color": [
        "- Brand colour is {v}; never pure black for text.",
        "Use {v} for warnings in the dashboard.",
        "- Prefers dark mode, accent {v}.",
    ],
    "semver": [
        "- Pinned to {v} until the upgrade is tested.",
        "We run {v} in production.",
        "- Client needs at least {v}.",
    ],
    "docker_image_digest": ["- Deployed image: {v}", "Roll back to `{v}` if needed."],
    "stripe_test_card": ["- Test checkout with card {v}, any future expiry, any CVC.", "Use {v} in the sandbox."],
    "random_file_name": ["- The screenshot is {v} in the shared drive.", "Attach {v} to the ticket."],
    "file_sha256": ["- sha256 of the release tarball: {v}", "`{v}  dist/app.tar.gz`"],
    "base64_prose": ["- The webhook body was `{v}` (base64).", "Decoded the note: {v}"],
    "aws_arn": ["- CI assumes {v}.", "Grant {v} read access to the bucket."],
    "generic_password": [
        "- Wi-Fi password for the office: {v}",
        "Staging admin login is admin / {v}",
        "- {person} set the DB password to {v}",
        "The zip from the vendor opens with {v}",
    ],
    "generic_api_key": ["- Partner API key for {project}: {v}", "Vendor gave us the key {v} (expires in a year)."],
    "generic_secret": ["- Session signing secret: {v}", "Set SECRET_KEY to {v} on the new box."],
    "postgres_url_password": ["- Connect with `psql {v}`", "Prod read replica: {v}"],
    "mysql_url_password": ["- Legacy shop DB: {v}"],
    "redis_url_password": ["- Cache: {v}"],
    "jwt": ["- Token from the login response: {v}", "Decoded this token on jwt.io: {v}"],
    "slack_webhook_url": ["- Alerts post to {v}", "Deploy notifications webhook: {v}"],
    "discord_webhook_url": ["- Community bot posts through {v}"],
    "openai_api_key": ["- OpenAI key for the summariser: {v}"],
    "anthropic_api_key": ["- Claude key for the eval harness: {v}"],
    "aws_secret_access_key": ["- AWS secret for the backup user: {v}"],
    "non_secret_setting": ["- {k}: {v}", "Policy: {k} = {v}."],
    "env_reference": ["- The password comes from {v} at runtime.", "Set `password: {v}` in the chart values."],
    "env_read_code": ["- Read the key with `{v}`, never hard-code it.", "In code: `{v}`."],
    "literal_placeholder": ["- Default password in the template is {v}; change it.", "`password: {v}`"],
    "angle_placeholder": ["- Replace {v} with your own key.", "`api_key = {v}`"],
    "prefixed_placeholder": ["- Key format looks like {v}.", "`STRIPE_KEY={v}`"],
    "documented_example_key": ["- AWS docs use {v} as the example.", "`{v}` is the example from the docs."],
    "masked_secret": ["- The dashboard shows the key as {v}.", "Key in use: {v}"],
    "oauth_client_id": ["- OAuth client id (public): {v}", "Client id for the login button: {v}"],
    "stripe_publishable_key": ["- Frontend uses {v}."],
    "mapbox_public_token": ["- Map widget token: {v}"],
    "sentry_public_dsn": ["- Frontend DSN: {v}"],
    "ssh_public_key": ["- Added to authorized_keys: `{v}`"],
}

FILL_EXTRA: dict[str, list[str]] = {
    "project": [
        "The {project} dashboard lives under the ops folder.",
        "Backups run nightly at 02:00 UTC and keep 14 days.",
        "Error budget is tracked weekly; {person} owns the report.",
        "Do not run migrations on Fridays.",
    ],
    "coding": [
        "Type hints everywhere; mypy runs in strict mode.",
        "Integration tests need Docker running locally.",
        "Use UTC in the database, local time only in the UI.",
    ],
    "prefs": [
        "Prefers tabs over spaces in Go, spaces in Python.",
        "Drinks tea, not coffee — relevant for the offsite order.",
        "Uses a standing desk; meetings after 16:00 are fine.",
        "Writes in English, reads German and Portuguese.",
    ],
    "runbook": [
        "5. Post a summary in the channel with the new expiry date.",
        "Rotation takes about 20 minutes end to end.",
        "Check the audit log for the old key's last use first.",
    ],
    "incident": [
        "Customer comms went out at 14:30 via the status page.",
        "No data loss; retries drained the backlog by 15:10.",
    ],
    "daily": [
        "Lunch with {person} — talked about the roadmap.",
        "Spent the afternoon on flaky tests in {project}.",
        "Read the design doc for the new billing flow.",
    ],
}
