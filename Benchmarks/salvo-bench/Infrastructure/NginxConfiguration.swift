/// The loopback nginx configuration of the benchmarks: adapted from
/// Tests/Servers/nginx.conf.template (which the tests own), trimmed to what the dispatch
/// and transfers suites need. Every path nginx writes is inside the bench's temporary directory.
struct NginxConfiguration {
    var directory: String
    var documentRoot: String
    var http1Port: Int
    var h2cPort: Int
    var workers: Int
    /// Workers of a root master would run as `nobody` and could not read the 0700
    /// temporary directory.
    var runsAsRoot: Bool

    var text: String {
        """
        \(runsAsRoot ? "user root;" : "")
        master_process on;
        worker_processes \(workers);
        pid \(directory)/nginx.pid;
        error_log \(directory)/nginx.error.log warn;

        events {
            worker_connections 16384;
            multi_accept on;
        }

        http {
            access_log off;
            server_tokens off;
            log_not_found off;
            default_type application/octet-stream;

            # No sendfile for the small bodies: with nginx 1.22 it stalls h2c responses
            # for a delayed-ACK period (~40 ms) at one request in flight, and costs
            # HTTP/1.1 too. (Large-file cases will want it on their own locations.)
            sendfile off;
            tcp_nodelay on;
            # The same small file tens of thousands of times: keep it open.
            open_file_cache max=64 inactive=60s;

            # Keep-alive without practical limits: a server-side close would show up as
            # a reconnect in the client's figures.
            keepalive_timeout 300s;
            keepalive_requests 1000000;
            http2_max_concurrent_streams 1024;

            client_body_temp_path \(directory)/client_body;
            proxy_temp_path       \(directory)/proxy;
            fastcgi_temp_path     \(directory)/fastcgi;
            uwsgi_temp_path       \(directory)/uwsgi;
            scgi_temp_path        \(directory)/scgi;

            server {
                # HTTP/1.1 keep-alive on one port, h2c (prior knowledge only) on the other.
                listen 127.0.0.1:\(http1Port) backlog=4096;
                listen 127.0.0.1:\(h2cPort) http2 backlog=4096;
                server_name localhost;
                root \(documentRoot);

                location = /small {
                    default_type text/plain;
                }

                # The decoding row's JSON object, a file like /small so that both rows get
                # the same response headers from the same nginx path.
                location = /small.json {
                    default_type application/json;
                }

                # The transfers suite's files: large bodies go out with sendfile.
                location /files/ {
                    sendfile on;
                    tcp_nopush on;
                    open_file_cache off;
                }

                # The same files, each connection held to limitedRate bytes a second: a
                # one-connection rate that ranges fetched side by side can multiply.
                location /limited/ {
                    alias \(documentRoot)/files/;
                    limit_rate \(Self.limitedRate);
                    sendfile on;
                    tcp_nopush on;
                    open_file_cache off;
                }

                # An upload sink: accepts a body of any size and answers 204. nginx reads
                # and discards the body in memory (nothing is written to disk); the client
                # checks that it sent every byte.
                location = /upload {
                    client_max_body_size 0;
                    return 204;
                }
            }
        }

        """
    }

    /// Bytes a second nginx sends on one connection under `/limited/` (50 MiB/s), written
    /// in bytes so no suffix convention is involved.
    static let limitedRate = 50 << 20

    /// The body nginx serves at `/small`: 100 bytes of text.
    static let smallBody = String(repeating: "salvo-bench small body. ", count: 5).prefix(99) + "\n"

    /// The body nginx serves at `/small.json`: a 100-byte JSON object that decodes as `Small`.
    static let smallJSON = #"{"id":1042,"name":"salvo-bench","kind":"small","count":16,"active":true,"note":"a 100-byte object"}"# + "\n"
}
