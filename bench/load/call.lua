-- One call for wrk: METHOD, BODY, TOKEN and ACCEPT_ENCODING come from the environment
-- (bench/lib.sh).
-- `done` prints one machine-readable line that lib.sh's wrk_call turns into its figures.
wrk.method = os.getenv("METHOD") or "GET"
local body = os.getenv("BODY")
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
local token = os.getenv("TOKEN")
if token and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end
local encoding = os.getenv("ACCEPT_ENCODING")
if encoding and encoding ~= "" then
  wrk.headers["Accept-Encoding"] = encoding
end

done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT %d %.6f %.3f %.3f %d\n", summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors))
end
