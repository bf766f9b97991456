-- Prosody for docker-compose: the XMPP server Tributary pushes through (issue 50).
-- Tributary signs in as tributary@localhost (made at start from LOCAL/DOMAIN/PASSWORD) and is an
-- admin, so it owns the nodes it makes on pubsub.localhost. People's own accounts live on the same
-- server here; in production point Tributary at your existing server and its domain instead.
admins = { "tributary@localhost" }
modules_enabled = { "roster", "saslauth", "disco", "ping", "offline", "register", "posix" }
modules_disabled = { "s2s" }
-- Inside the compose network only (the port is not published): no certificate to make.
c2s_require_encryption = false
allow_unencrypted_plain_auth = true
authentication = "internal_hashed"
storage = "internal"
log = { { levels = { min = "info" }, to = "console" } }

VirtualHost "localhost"

Component "pubsub.localhost" "pubsub"
  pubsub_max_items = 1000
