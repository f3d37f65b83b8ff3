/// The help text.
enum Usage {
    static let text = """
    usage: salvo-bench [SUITE ...] [options]

    Suites (all of them when none is named):
      encoding    parameter encoding, routing and headers, against Foundation baselines
      dispatch    small GETs against a loopback nginx at 1, 16, 128 and 1024 in flight,
                  HTTP/1.1 and h2c: raw libcurl (epoll + socket_action, and poll), Salvo
                  used as a server uses it (validate, status and body read; handlers and
                  async/await), decoding a JSON object, and without validation or
                  response read, and URLSession, each client in a child process of its
                  own; Salvo's ratios are over the poll C driver (curl-poll)
      transfers   1000 × 100 KiB (16 at once) and 4 × 256 MiB downloads, one 1 GiB file
                  in 8 ranges from a location limited to 50 MiB/s per connection, a
                  256 MiB upload, from the loopback nginx: the Salvo library, the salvo
                  tool (built beside salvo-bench: swift build -c release --product salvo),
                  curl --parallel and aria2c (when installed), each in a child process;
                  with --quick 100 × 100 KiB, 2 × 8 MiB, 64 MiB in 8 ranges and an 8 MiB
                  upload

    Options:
      --quick              every suite briefly: proves the benchmark works, judges nothing
      --json FILE          also write the results as JSON
      --rounds N           rounds per case (default 3; 1 with --quick)
      --requests N         dispatch requests per client and case (default 20000; 400 with --quick)
      --inflight LIST      dispatch concurrency levels, comma-separated (default 1,16,128,1024)
      --protocols LIST     h1, h2c or both (default h1,h2c)
      --clients LIST       dispatch clients (default all): \(DispatchClient.allCases.map(\.rawValue).joined(separator: ","))
      --nginx-workers N    nginx worker processes (default 2)
      -h, --help           this text

    nginx (Debian: apt-get install nginx-light) must be installed for `dispatch` and `transfers`; set
    SALVO_BENCH_NGINX to use one that is not on PATH.
    """
}
