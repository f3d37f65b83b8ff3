/// The help text.
enum Usage {
    static let text = """
    usage: salvo-bench [SUITE ...] [options]

    Suites (all of them when none is named):
      encoding    parameter encoding, routing and headers, against Foundation baselines
      dispatch    small GETs against a loopback nginx at 1, 16, 128 and 1024 in flight,
                  HTTP/1.1 and h2c (and over TLS with --protocols): raw libcurl (epoll +
                  socket_action, and poll), Salvo used as a server uses it (validate,
                  status and body read; handlers and async/await), decoding a JSON
                  object, and without validation or response read, and URLSession, each
                  client in a child process of its own; Salvo's ratios are over the poll C driver (curl-poll); every row
                  shows the connections nginx accepted from it (stub_status)
      tls-connect N GETs at once (--connections, default 64), each on a new verified TLS
                  connection (HTTP/1.1, TLS 1.3) to the loopback nginx: CPU per connection
                  of the libcurl C driver (CURLOPT_FRESH_CONNECT) and of Salvo (a new
                  Session per run), the one-time set-up (Salvo's CA store) shown apart
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
      --protocols LIST     dispatch protocols, comma-separated (default h1,h2c): h1 (HTTP/1.1),
                           h2c (HTTP/2 prior knowledge), h1s (HTTP/1.1 over TLS), h2 (HTTP/2
                           over TLS by ALPN); the TLS ones verify against a CA the bench makes
      --clients LIST       dispatch clients (default all): \(DispatchClient.allCases.map(\.rawValue).joined(separator: ","))
      --connections N      tls-connect: connections at once in each run (default 64)
      --ca LIST            tls-connect: the CA bundles clients verify against, one case each
                           (default private,system): private (the bench's CA alone), system
                           (libcurl's built-in bundle with the bench's CA appended: what a
                           program that trusts the system's CAs loads)
      --nginx-workers N    nginx worker processes (default 2)
      -h, --help           this text

    nginx (Debian: apt-get install nginx-light) must be installed for `dispatch`, `tls-connect` and
    `transfers`; set SALVO_BENCH_NGINX to use one that is not on PATH. The TLS cases (h1s, h2,
    tls-connect) also need the openssl command, which makes the bench's CA and certificate.
    """
}
