-- The report both wrk scripts of this folder print when a run ends: one JSON line with
-- throughput, latency percentiles and every kind of error (read by run.sh and mixed.sh).
function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.2f, "rps": %.1f, "p50_ms": %.2f, "p90_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f, "non_2xx": %d, "connect": %d, "read": %d, "write": %d, "timeout": %d}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
