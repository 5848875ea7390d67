-- wrk script for the mixed API load: each thread rotates over the requests of the file
-- in REQUESTS (one per line: METHOD PATH [JSON body]); "{n}" in a body becomes a number
-- unique to the thread and request, so writes create new rows. Sends the API key
-- (PODLENS_KEY; or PODLENS_KEYS, several separated by commas, taken in turn, so that
-- writes spread over several teams' caps) and prints one JSON line with throughput,
-- latency percentiles and every kind of error.
local keys = {}
for key in string.gmatch(os.getenv("PODLENS_KEYS") or os.getenv("PODLENS_KEY"), "[^,]+") do
  keys[#keys + 1] = key
end
local requests = {}
for line in io.lines(os.getenv("REQUESTS")) do
  local method, path, body = string.match(line, "^(%S+)%s+(%S+)%s*(.*)$")
  if method then
    requests[#requests + 1] = { method = method, path = path, body = body ~= "" and body or nil }
  end
end

local threads = {}
local thread_id = 0
function setup(thread)
  thread_id = thread_id + 1
  thread:set("id", thread_id)
  threads[#threads + 1] = thread
end

local counter = 0
function request()
  counter = counter + 1
  local r = requests[(counter % #requests) + 1]
  local headers = { ["Authorization"] = keys[(counter % #keys) + 1] }
  local body = nil
  if r.body then
    headers["Content-Type"] = "application/json"
    body = string.gsub(r.body, "{n}", string.format("%d%07d", id, counter))
  end
  return wrk.format(r.method, r.path, headers, body)
end

dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
