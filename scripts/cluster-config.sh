# Sourced by scripts/cluster.sh: the configuration files of the local failover cluster,
# written into its folder ($dir) for the ports `up` picked. Apart from cluster.sh so that
# each file stays short; the settings are explained in docs/operations.md, "Deployment with
# a failover cluster".
# shellcheck shell=bash disable=SC2154

write_patroni_config() {
  local node=$1 pg_port=$2 rest_port=$3
  cat >"$dir/$node.yml" <<EOF
scope: backoffice
namespace: /service/
name: $node
log:
  dir: $dir/$node-log
restapi:
  listen: 127.0.0.1:$rest_port
  connect_address: 127.0.0.1:$rest_port
etcd3:
  hosts: 127.0.0.1:$etcd_port
bootstrap:
  dcs:
    # A dead leader is noticed within ttl seconds; loop_wait + 2 * retry_timeout <= ttl.
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    # Patroni keeps synchronous_standby_names naming the healthy standby: a commit is
    # acknowledged only once the standby has it, so a failover loses nothing acknowledged.
    # Not strict: with the standby gone the primary goes on alone (availability first).
    synchronous_mode: true
    synchronous_mode_strict: false
    # A crashed primary is failed over to the standby at once instead of being restarted
    # in place (Patroni's default waits up to 300 s for crash recovery on the same node).
    primary_start_timeout: 0
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        synchronous_commit: "on"
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
  initdb:
    - encoding: UTF8
    - locale: C
    - auth: trust
postgresql:
  listen: 127.0.0.1:$pg_port
  connect_address: 127.0.0.1:$pg_port
  data_dir: $dir/$node
  bin_dir: $pg_bin
  pgpass: $dir/$node.pgpass
  # Loopback only and thrown away afterwards: trust, no passwords to keep.
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
    rewind:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: $dir
EOF
}

write_haproxy_config() {
  cat >"$dir/haproxy.cfg" <<EOF
global
  maxconn 2000
  pidfile $dir/haproxy.pid
  stats socket $dir/haproxy.sock mode 600 level admin

defaults
  timeout connect 2s
  timeout check 2s
  # Checked every second, out after two failures: a dead primary or server leaves
  # rotation within about 2 s of its check failing.
  default-server inter 1s fastinter 500ms fall 2 rise 2

# PostgreSQL: only the node whose Patroni answers 200 on /primary (the leader, running,
# writable) gets connections. on-marked-down shutdown-sessions cuts the connections to a
# node that stops being the primary, so no client keeps writing to (or waiting on) it.
listen postgres
  bind 127.0.0.1:$db_proxy_port
  mode tcp
  timeout client 30m
  timeout server 30m
  option httpchk GET /primary
  http-check expect status 200
  # One good answer is enough: Patroni's /primary is already the failover manager's word
  # (it holds the leader key and PostgreSQL is writable), so the new primary takes
  # connections a second sooner.
  default-server inter 1s fastinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
  server pg1 127.0.0.1:$pg1_port check port $rest1_port
  server pg2 127.0.0.1:$pg2_port check port $rest2_port

# The servers: those whose /readyz answers 200 (the database answers). A request whose
# connection to a dead server fails is sent to the other one (it never reached a server,
# so it is safe to send again, even a POST).
listen api
  bind 127.0.0.1:$api_proxy_port
  mode http
  timeout client 60s
  timeout server 60s
  # The live monitor's stream stays open for long.
  timeout tunnel 1h
  balance roundrobin
  option forwardfor
  option httpchk GET /readyz
  http-check expect status 200
  retries 2
  option redispatch 1
  retry-on conn-failure
  # No on-marked-down shutdown-sessions here: a server marked down because its /readyz
  # fails (the database has no primary for a moment) is alive, and a request it is
  # answering finishes (an answer cut by HAProxy would leave its caller not knowing
  # whether the order was placed). A server that died breaks its connections by itself.
  # A request whose server died with it (its answer is lost: it may have been done) gets
  # JSON saying to retry with the same key, like the server's own 503, not an HTML page.
  http-error status 502 content-type "application/json; charset=utf-8" hdr Retry-After 2 string '{"code":50300,"msg":"The answer was lost on its way: retry with the same merchant order id or Idempotency-Key (应答丢失，请用相同的商户订单号或幂等键重试)"}'
  http-error status 504 content-type "application/json; charset=utf-8" hdr Retry-After 2 string '{"code":50300,"msg":"No answer in time: retry with the same merchant order id or Idempotency-Key (应答超时，请用相同的商户订单号或幂等键重试)"}'
  # While no server is ready (every /readyz fails while the database has no primary),
  # answer like the server's own not-ready answer, {code: 50300, msg} in the caller's
  # language with Retry-After, instead of HAProxy's HTML page: a client then sees one
  # kind of temporary unavailability whichever side answers.
  acl no_server nbsrv(api) eq 0
  acl chinese req.hdr(accept-language) -m beg -i zh
  http-request return status 503 content-type "application/json; charset=utf-8" hdr Retry-After 2 string '{"code":50300,"msg":"服务暂时不可用，请稍后重试"}' if no_server chinese
  http-request return status 503 content-type "application/json; charset=utf-8" hdr Retry-After 2 string '{"code":50300,"msg":"The service is temporarily unavailable, please retry shortly"}' if no_server
  server api1 127.0.0.1:$api1_port check
  server api2 127.0.0.1:$api2_port check
EOF
}
