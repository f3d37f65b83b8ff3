/// The loopback nginx configuration of the benchmarks: adapted from
/// Tests/Servers/nginx.conf.template (which the tests own), trimmed to what the dispatch
/// and transfers suites need. Every path nginx writes is inside the bench's temporary directory.
struct NginxConfiguration {
    /// The TLS port's settings.
    struct TLS {
        var port: Int
        var certificatePath: String
        var keyPath: String
    }

    var directory: String
    var documentRoot: String
    var http1Port: Int
    var h2cPort: Int
    /// The TLS port, when a suite asked for one.
    var tls: TLS?
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
                # Every request of the deepest h2c case on the one connection.
                http2_max_concurrent_streams 1024;

        \(Self.smallLocations)

                # The connection counters the dispatch and tls-connect suites read before
                # and after each client's run (NginxStatus).
                location = \(NginxStatus.path) {
                    stub_status;
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
        \(tlsServer)
        }

        """
    }

    /// The same small bodies over TLS, HTTP/1.1 or HTTP/2 as the client's ALPN asks.
    /// nginx 1.22 offers TLS 1.2 alone unless told otherwise; 1.3 is what servers speak
    /// today. nginx's default of 128 streams on a connection stays, so that more requests
    /// in flight than that need more connections, as with most servers.
    ///
    /// No TLS session is resumed: every new connection is a full handshake whose
    /// certificate the client verifies. With nginx's default session tickets, a client that
    /// shares sessions between its connections (Salvo does) resumed between an eighth and a
    /// half of tls-connect's "fresh" connections (those it started after an earlier handshake
    /// had finished) and skipped the very verification that suite measures; the C driver's
    /// easy handles share none.
    private var tlsServer: String {
        guard let tls else { return "" }
        return """

                server {
                    listen 127.0.0.1:\(tls.port) ssl http2 backlog=4096;
                    server_name localhost;
                    root \(documentRoot);
                    ssl_certificate \(tls.certificatePath);
                    ssl_certificate_key \(tls.keyPath);
                    ssl_protocols TLSv1.2 TLSv1.3;
                    http2_max_concurrent_streams 128;
                    ssl_session_tickets off;
                    ssl_session_cache off;

            \(Self.smallLocations)
                }
            """
    }

    private static let smallLocations = """
                location = /small {
                    default_type text/plain;
                }

                # The decoding row's JSON object, a file like /small so that both rows get
                # the same response headers from the same nginx path.
                location = /small.json {
                    default_type application/json;
                }
        """

    /// Bytes a second nginx sends on one connection under `/limited/` (50 MiB/s), written
    /// in bytes so no suffix convention is involved.
    static let limitedRate = 50 << 20

    /// The body nginx serves at `/small`: 100 bytes of text.
    static let smallBody = String(repeating: "salvo-bench small body. ", count: 5).prefix(99) + "\n"

    /// The body nginx serves at `/small.json`: a 100-byte JSON object that decodes as `Small`.
    static let smallJSON = #"{"id":1042,"name":"salvo-bench","kind":"small","count":16,"active":true,"note":"a 100-byte object"}"# + "\n"
}
