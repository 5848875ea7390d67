-- wrk script for the API load benchmark: rotates over request paths (PATHS, space
-- separated) or POST bodies (BODIES, a file with one JSON body per line), sends the
-- API key (PODLENS_KEY; or PODLENS_KEYS, several separated by commas, taken in turn),
-- and prints one JSON line with throughput, latency percentiles and every kind of error.
local keys = {}
for key in string.gmatch(os.getenv("PODLENS_KEYS") or os.getenv("PODLENS_KEY"), "[^,]+") do
  keys[#keys + 1] = key
end
local paths, bodies = {}, {}
for path in string.gmatch(os.getenv("PATHS") or "", "%S+") do
  paths[#paths + 1] = path
end
local bodies_file = os.getenv("BODIES")
if bodies_file and bodies_file ~= "" then
  for line in io.lines(bodies_file) do
    if line ~= "" then bodies[#bodies + 1] = line end
  end
end

local counter = 0
wrk.headers["Authorization"] = keys[1]
if #bodies > 0 then
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  if #keys > 1 then
    wrk.headers["Authorization"] = keys[(counter % #keys) + 1]
  end
  if #bodies > 0 then
    return wrk.format(nil, paths[1], nil, bodies[(counter % #bodies) + 1])
  end
  return wrk.format(nil, paths[(counter % #paths) + 1])
end

dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
