-- Prepared requests for wrk (bench/open_api_load.sh): REQUESTS names a file of one request
-- per line, "PATH<TAB>BODY<TAB>HEADER: VALUE<TAB>…", each sent once. The requests are built
-- in `init`, before wrk's clock starts, so the load generator does no signing and no
-- formatting while it is timed. Thread i of THREADS takes lines i, i + THREADS, …, so no
-- request (no nonce, no merchant order id) is sent twice.
local next_id = 1
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local prepared = {}
local position = 0

function init(args)
  local threads = tonumber(os.getenv("THREADS") or "1")
  local index = 0
  for line in io.lines(os.getenv("REQUESTS")) do
    if index % threads == id - 1 then
      local fields = {}
      for field in (line .. "\t"):gmatch("([^\t]*)\t") do
        fields[#fields + 1] = field
      end
      local headers = { ["Content-Type"] = "application/json" }
      for i = 3, #fields do
        local name, value = fields[i]:match("^([^:]+): (.*)$")
        headers[name] = value
      end
      prepared[#prepared + 1] = wrk.format("POST", fields[1], headers, fields[2])
    end
    index = index + 1
  end
end

function request()
  position = position + 1
  if position > #prepared then
    -- Out of prepared requests: sent again, a replay that the server refuses (401), which
    -- wrk counts in its status errors and the driver reports.
    position = 1
  end
  return prepared[position]
end

done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %.6f %.3f %.3f %d\n", summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
