-- wrk's script for benchmarks/bench_serve.py: GET /api/v1/puzzle?level=... with the levels
-- in turn, each thread stopping after the number of answers given as its argument (0: at
-- wrk's --duration or on SIGINT) and printing "WRK-STOPPED" then (wrk's main thread sleeps
-- out the duration: bench_serve.py ends it with SIGINT), every answer that is not a 200 with
-- an "id" counted as an error, and the figures printed at the end as one line: "WRK " and a
-- JSON object (latency in microseconds).
--
--   wrk -t1 -c50 -d120s --timeout 60s -s benchmarks/wrk_puzzle.lua http://127.0.0.1:PORT -- 5000

local levels = { "easy", "medium", "hard", "fiendish", "diabolical" }
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  limit = tonumber(args[1] or "0") or 0
  sent = 0
  answered = 0
  bad = 0
end

function request()
  sent = sent + 1
  return wrk.format("GET", "/api/v1/puzzle?level=" .. levels[(sent - 1) % #levels + 1])
end

function response(status, headers, body)
  answered = answered + 1
  if status ~= 200 or not string.find(body, '"id":', 1, true) then
    bad = bad + 1
  end
  if limit > 0 and answered == limit then
    io.write("WRK-STOPPED\n")
    io.flush()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local answered_all, bad_all = 0, 0
  for _, t in ipairs(threads) do
    answered_all = answered_all + t:get("answered")
    bad_all = bad_all + t:get("bad")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK {"answered": %d, "bad": %d, "connect_errors": %d, "read_errors": %d, '
      .. '"write_errors": %d, "timeouts": %d, "requests": %d, "duration_us": %d, '
      .. '"p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, "mean_us": %.1f}\n',
    answered_all, bad_all, e.connect, e.read, e.write, e.timeout, summary.requests,
    summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, latency.mean
  ))
end
