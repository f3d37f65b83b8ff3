/// The text `salvo --help` prints: every option, the exit statuses, the naming and retry
/// rules and the input-file format, so the tool can be used without other documentation.
enum ToolHelp {
    static let text = """
    Usage: salvo [OPTIONS] [URL ...]

    Downloads many files over HTTP and HTTPS at once. Each file is written as NAME.part,
    verified, then renamed, so a name in the output directory always holds a complete file.
    A URL given as an argument is one file; -o and --checksum apply to a single one.

    Input:
      -i, --input-file FILE     URL list in aria2's input-file format (below); '-' reads
                                standard input. Lists are read as a stream, never whole.
          --shard K/N | auto    take only shard K of N (0 <= K < N) of the URLs: a URL belongs
                                to shard FNV-1a-64(URL) mod N, so N runs split a list exactly.
                                'auto' reads JOB_COMPLETION_INDEX with N from SALVO_SHARDS
                                (Kubernetes Indexed Jobs), else SLURM_ARRAY_TASK_ID minus
                                SLURM_ARRAY_TASK_MIN with N from SLURM_ARRAY_TASK_COUNT (Slurm).

    Output:
      -d, --dir DIR             output directory (default: the current directory)
      -o, --out NAME            file name, for a single URL given as an argument
      -c, --continue            resume partial files (NAME.part) left by an earlier run, and
                                skip a file already whole under its final name: its checksum
                                matches (no request is made), or its size is the length the
                                server gives (counted as skipped)
          --checksum TYPE=HEX   expected digest of a single URL's file; TYPE is sha-256,
                                sha-1 or md5. A file that does not match is a failure.
          --no-fsync            rename finished files without first flushing them to the
                                disk (fsync), as curl and aria2 do: faster, and still safe
                                if salvo is killed, but a power cut may then leave a final
                                name on data the disk never received
          --allow-overwrite[=true|false]  replace an existing file of the same name instead
                                of taking the next free number (a name another file of this
                                run took is still numbered)
      -R, --remote-time[=true|false]  give each file the server's Last-Modified as its time
          --dry-run[=true|false]  only check each URL: send its GET, read the answer's head,
                                drop the body; nothing is written, no directory made. A URL
                                that answers 2xx prints 'available  URL'; the exit status is
                                0 when every URL is there, 1 otherwise

    Connections:
      -j, --max-concurrent-downloads N   files in flight at once (default 16; 1-10000)
      -x, --max-connection-per-server N  connections to one host (default 8; 1-64)
      -s, --split N             ranges of one file fetched at once (default 1; 1-64), each
                                over its own request, written at its place in NAME.part
                                (ranges of at least 64 KiB). The first request asks for one
                                byte to learn the length; a server that ignores ranges sends
                                the whole file on that one connection, with a notice.
          --header "Name: value"         extra request header; repeatable (a later one
                                         of the same name replaces an earlier one)
          --max-download-limit RATE      bytes per second for each file
          --max-overall-download-limit RATE  bytes per second for the whole run
                                RATE is a whole number with an optional K (x1024) or
                                M (x1048576) suffix, in any case; 0 means no limit (default).
                                With -s N, each range of a file gets RATE/N. The overall
                                limit is shared by every transfer of the run: one that would
                                exceed it waits.

    TLS:
          --ca-certificate FILE PEM file of CA certificates to trust IN ADDITION to the
                                system's (as aria2 with OpenSSL adds them)
          --check-certificate[=true|false]  verify servers' certificates (default true)
          --certificate FILE    client certificate (PEM), for servers that ask for one
          --private-key FILE    its private key (unencrypted PEM), unless FILE above holds it

    Proxies:
          --all-proxy PROXY     proxy for every URL without a proxy of its scheme
          --http-proxy PROXY    proxy for http URLs
          --https-proxy PROXY   proxy for https URLs (reached with CONNECT, end to end TLS)
                                PROXY is [http://][USER:PASSWORD@]HOST[:PORT] (port 1080 when
                                none is given, as curl); '' means no proxy and overrides the
                                environment. https://, socks4://, socks4a://, socks5:// and
                                socks5h:// proxies work as in curl.
          --no-proxy LIST       comma-separated hosts, domains (example.com also matches
                                www.example.com) and addresses (with /BITS) reached directly;
                                '*' for all
                                Without these options, the environment is read as curl reads
                                it: http_proxy (lower case only), https_proxy or HTTPS_PROXY,
                                all_proxy or ALL_PROXY, no_proxy or NO_PROXY. Any option wins
                                over every variable (--all-proxy over http_proxy too).

    Logins and cookies:
          --http-user USER      user for HTTP Basic authentication, sent with each request to
                                the origins (scheme, host, port) of the entry's own URLs, never
                                to another host a redirect leads to
          --http-passwd PASSWD  its password
          --netrc-path FILE     netrc file of logins by host (default: $HOME/.netrc, read when
                                it exists); a host's login goes only to that host, and only
                                when no --http-user applies. Its 'default' entry is ignored,
                                as aria2 does for HTTP; its permissions are not checked.
      -n, --no-netrc[=true|false]  read no netrc file
          --load-cookies FILE   cookies in the Netscape/Mozilla format (curl -c, browser
                                exports): each sent to the hosts and paths it belongs to,
                                secure ones over https only, expired ones never
      -U, --user-agent UA       the User-Agent header (a --header or header= one still wins)
                                Passwords appear nowhere salvo writes: not in the display,
                                the JSON events, the manifest or error messages.

    Retries and timeouts:
          --max-tries N         attempts per file, the first included (default 5; 0 = no limit)
          --retry-wait SEC      seconds between attempts (default 1; 0-600)
          --timeout SEC         seconds a transfer may stall before it fails (default 60)
          --connect-timeout SEC seconds a connection may take to open (default 60)
                                Retried: connection errors, timeouts, and HTTP 408, 429, 500,
                                502, 503 and 504. Not retried: 404 and every other 4xx; a
                                checksum mismatch.

    Reporting:
          --json                JSON lines on standard output, one event per line, each with
                                an "event" field: start, progress (at most two a second per
                                file), retry (attempt, delay, reason), single_connection
                                (reason: -s could not cut the file into ranges), done (path, bytes,
                                sha256, attempts, seconds), error (reason), cancelled (Ctrl-C;
                                path of the kept partial file), skipped (-c found it whole)
                                and summary, last
          --manifest FILE       when the run ends, one JSON line per file written to FILE:
                                url, path, bytes, sha256, attempts, seconds, status (done,
                                failed, interrupted, skipped) and reason for a failed file
      -q, --quiet               no progress display and no notices: only errors, and the
                                summary's failure lines on standard error
          --help                print this help and exit
          --version             print the version and exit

      On a terminal, one overall line (files done of those started so far, bytes, rate, and
      the ETA once every file has started and told its size) and a line per file in flight
      are redrawn in place up to ten times a second. Otherwise (a pipe, a log) each file
      prints one line as it ends, 'done  PATH  BYTES' or 'FAILED URL: REASON'. Both end with
      a summary: files done, failed and skipped (and stopped by Ctrl-C), bytes, time, mean
      rate, and each failure.

    Ctrl-C:
      The first starts no new file and stops the files in flight, keeping each as NAME.part
      (continue it later with -c); the summary is printed and salvo exits with 130. A second
      Ctrl-C exits with 130 at once.

    Options take their value as '--opt=value', '--opt value', '-j4' or '-j 4'. Flags may be
    grouped ('-cq'). '--' ends the options: every later argument is a URL. A [true|false]
    option named alone is true; it takes a value only after '=' ('--check-certificate=false').

    File names:
      -o and out= name a file inside the output directory; a name that is absolute or
      climbs out with '..' is refused. When two URLs of one run map to the same name, the
      later ones get " (1)", " (2)", ... before the extension: report.pdf, report (1).pdf,
      report (2).pdf.

    Input-file format (aria2's):
      https://example.com/a.iso<TAB>https://mirror.example.org/a.iso
        out=a.iso
        dir=images
        checksum=sha-256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
        header=Authorization: Bearer TOKEN
      # a comment
      https://example.com/b.tar.gz

      A line that does not start with a blank is an entry: one or more URLs of one file
      (mirrors), separated by TAB; each an absolute http or https URL. Lines starting with
      a space or TAB are options, name=value, for the entry above: out= (file name,
      relative to the directory), dir= (directory), checksum=TYPE=HEX (sha-256, sha-1,
      md5), header=Name: value (repeatable), and as aria2 allows them per entry, over the
      command line's: user-agent=, http-user=, http-passwd=, all-proxy=, http-proxy=,
      https-proxy=, no-proxy=, no-netrc=, remote-time=, allow-overwrite= and dry-run=
      (true or false). Lines starting with '#' are comments; blank lines are skipped; CRLF
      line ends and a UTF-8 byte order mark are accepted. An option before any entry, an
      unknown or malformed option, a bad checksum, URL or header stops the run before
      anything is downloaded, naming the file and line. A list read from standard input or
      a pipe is checked as it streams: at a bad line no further file starts, the files in
      flight finish, and salvo exits with 2 naming the line.

    Exit status:
      0    every file downloaded and verified
      1    some files failed; the others were kept
      2    usage or input-list error; nothing was downloaded (from a streamed list,
           nothing after the bad line)
      130  interrupted by Ctrl-C
    """
}
