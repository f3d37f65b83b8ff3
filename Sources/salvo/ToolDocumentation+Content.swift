// What `salvo --help` and salvo(1) say. Each paragraph is written once here; ToolHelp lays it
// out for a terminal and ToolManPage for man. A no-break space (\u{A0}) keeps words together
// on one line. Text inside `.manualOnly` appears in the manual page alone.

extension ToolDocumentation {
    typealias O = Option

    static let salvo = ToolDocumentation(
        usage: "[OPTIONS] [URL ...]",
        summary: "download many files over HTTP and HTTPS at once, resumable and verified",
        sections: [
            Section(helpTitle: nil, manualPlace: .description, blocks: introduction),
            Section(helpTitle: "Input", manualPlace: .optionsSubsection("Input"), blocks: input),
            Section(helpTitle: "Output", manualPlace: .optionsSubsection("Output"), blocks: output),
            Section(helpTitle: "Connections", manualPlace: .optionsSubsection("Connections"), blocks: connections),
            Section(helpTitle: "TLS", manualPlace: .optionsSubsection("TLS"), blocks: tls),
            Section(helpTitle: "Proxies", manualPlace: .optionsSubsection("Proxies"), blocks: proxies),
            Section(helpTitle: "Logins and cookies", manualPlace: .optionsSubsection("Logins and cookies"), blocks: logins),
            Section(helpTitle: "Retries and timeouts", manualPlace: .optionsSubsection("Retries and timeouts"), blocks: retries),
            Section(helpTitle: "Reporting", manualPlace: .optionsSubsection("Reporting"), blocks: reporting),
            Section(helpTitle: "Ctrl-C", manualPlace: .section("CTRL-C"), blocks: interrupt),
            Section(helpTitle: nil, manualPlace: .optionsIntroduction, blocks: optionSyntax),
            Section(helpTitle: "File names", manualPlace: .section("FILE NAMES"), blocks: fileNames),
            Section(helpTitle: "Input-file format (aria2's)", manualPlace: .section("INPUT FILE FORMAT"), blocks: inputFormat),
            Section(helpTitle: "Exit status", manualPlace: .section("EXIT STATUS"), blocks: exitStatus),
            Section(helpTitle: nil, manualPlace: .section("ENVIRONMENT"), inHelp: false, blocks: environment),
            Section(helpTitle: nil, manualPlace: .section("FILES"), inHelp: false, blocks: files),
            Section(helpTitle: nil, manualPlace: .section("EXAMPLES"), inHelp: false, blocks: examples),
            Section(helpTitle: nil, manualPlace: .section("ACROSS MACHINES"), inHelp: false, blocks: acrossMachines),
            Section(helpTitle: nil, manualPlace: .section("SEE ALSO"), inHelp: false, blocks: seeAlso),
        ])

    private static let introduction: [Block] = [
        .paragraph(prose("""
            Downloads many files over HTTP and HTTPS at once. Each file is written as NAME.part,
            verified, then renamed, so a name in the output directory always holds a complete file.
            A URL given as an argument is one file; -o and --checksum apply to a single one.
            """)),
        .manualOnly([
            .paragraph(prose("""
                Beside NAME.part lies a small sidecar, NAME.part.json, with the URL, the server's
                validators and the ranges already written. By default a finished file is flushed to
                the disk (fsync) before its rename, so not even a power cut leaves a final name on
                missing bytes; --no-fsync skips the flush, as curl and aria2 do, and a killed salvo
                still never leaves a partial file under a final name.
                """)),
            .paragraph(prose("""
                With -c, partial files are resumed with Range and If-Range, also one whose name only
                the server's Content-Disposition gives, and a file already whole under its final name
                is skipped: one recorded as downloaded from the same URL, or where nothing is recorded
                on the file, one whose checksum matches or whose size is the length the server gives.
                With -s N a file is fetched as N ranges when the server offers ranges.
                A list is read as a stream: a million lines start at once, in flat memory.
                Any number of salvo processes can write into one directory (see FILE NAMES).
                """)),
        ]),
    ]

    private static let input: [Block] = [
        .options([
            O(short: "-i", long: "--input-file", argument: "FILE", text: prose("""
                URL list in aria2's input-file format (below); '-'\u{A0}reads standard input.
                Lists are read as a stream, never whole.
                """)),
            O(short: nil, long: "--shard", argument: "K/N | auto", text: prose("""
                take only shard K of N (0 <= K < N) of the URLs: a URL belongs to shard
                FNV-1a-64(URL) mod N, so N runs split a list exactly. 'auto' reads
                JOB_COMPLETION_INDEX with N from SALVO_SHARDS (Kubernetes Indexed Jobs), else
                SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN with N from SLURM_ARRAY_TASK_COUNT
                (Slurm).
                """)),
        ])
    ]

    private static let output: [Block] = [
        .options([
            O(short: "-d", long: "--dir", argument: "DIR", text: "output directory (default: the current directory)"),
            O(short: "-o", long: "--out", argument: "NAME", text: "file name, for a single URL given as an argument"),
            O(short: "-c", long: "--continue", argument: nil, text: prose("""
                resume partial files (NAME.part) left by an earlier run, and skip a file already
                whole under its final name: its checksum matches (no request is made), or its size
                is the length the server gives (counted as skipped)
                """)),
            O(short: nil, long: "--checksum", argument: "TYPE=HEX", text: prose("""
                expected digest of a single URL's file; TYPE is sha-256, sha-1 or md5. A file that
                does not match is a failure.
                """)),
            O(short: nil, long: "--no-fsync", argument: nil, text: prose("""
                rename finished files without first flushing them to the disk (fsync), as curl and
                aria2 do: faster, and still safe if salvo is killed, but a power cut may then leave
                a final name on data the disk never received
                """)),
            O(short: nil, long: "--allow-overwrite", argument: "[=true|false]", text: prose("""
                replace an existing file of the same name instead of taking the next free number (a
                name another file of this run took is still numbered)
                """)),
            O(short: "-R", long: "--remote-time", argument: "[=true|false]",
              text: "give each file the server's Last-Modified as its time"),
            O(short: nil, long: "--dry-run", argument: "[=true|false]", text: prose("""
                only check each URL: send its GET, read the answer's head, drop the body; nothing is
                written, no directory made. A URL that answers 2xx prints 'available\u{A0}\u{A0}URL';
                the exit status is 0 when every URL is there, 1 otherwise
                """)),
        ])
    ]

    private static let connections: [Block] = [
        .options([
            O(short: "-j", long: "--max-concurrent-downloads", argument: "N",
              text: "files in flight at once (default 16; 1-10000)"),
            O(short: "-x", long: "--max-connection-per-server", argument: "N",
              text: "connections to one host (default 8; 1-64)"),
            O(short: "-s", long: "--split", argument: "N", text: prose("""
                ranges of one file fetched at once (default 1; 1-64), each over its own request,
                written at its place in NAME.part (ranges of at least 64 KiB). The first request
                asks for one byte to learn the length; a server that ignores ranges sends the whole
                file on that one connection, with a notice.
                """)),
            O(short: nil, long: "--header", argument: "\"Name: value\"", text: prose("""
                extra request header; repeatable (a later one of the same name replaces an earlier
                one)
                """)),
            O(short: nil, long: "--max-download-limit", argument: "RATE", text: "bytes per second for each file"),
            O(short: nil, long: "--max-overall-download-limit", argument: "RATE", text: "bytes per second for the whole run",
              notes: [prose("""
                RATE is a whole number with an optional K (x1024) or M (x1048576) suffix, in any
                case; 0 means no limit (default). With -s N, each range of a file gets RATE/N. The
                overall limit is shared by every transfer of the run: one that would exceed it
                waits.
                """)]),
        ])
    ]

    private static let tls: [Block] = [
        .options([
            O(short: nil, long: "--ca-certificate", argument: "FILE", text: prose("""
                PEM file of CA certificates to trust IN ADDITION to the system's (as aria2 with
                OpenSSL adds them)
                """)),
            O(short: nil, long: "--check-certificate", argument: "[=true|false]",
              text: "verify servers' certificates (default true)"),
            O(short: nil, long: "--certificate", argument: "FILE",
              text: "client certificate (PEM), for servers that ask for one"),
            O(short: nil, long: "--private-key", argument: "FILE",
              text: "its private key (unencrypted PEM), unless FILE above holds it"),
        ])
    ]

    private static let proxies: [Block] = [
        .options([
            O(short: nil, long: "--all-proxy", argument: "PROXY", text: "proxy for every URL without a proxy of its scheme"),
            O(short: nil, long: "--http-proxy", argument: "PROXY", text: "proxy for http URLs"),
            O(short: nil, long: "--https-proxy", argument: "PROXY",
              text: "proxy for https URLs (reached with CONNECT, end to end TLS)",
              notes: [prose("""
                PROXY is [http://][USER:PASSWORD@]HOST[:PORT] (port 1080 when none is given, as
                curl); '' means no proxy and overrides the environment. https://, socks4://,
                socks4a://, socks5:// and socks5h:// proxies work as in curl.
                """)]),
            O(short: nil, long: "--no-proxy", argument: "LIST", text: prose("""
                comma-separated hosts, domains (example.com also matches www.example.com) and
                addresses (with /BITS) reached directly; '*' for all
                """),
              notes: [prose("""
                Without these options, the environment is read as curl reads it: http_proxy (lower
                case only), https_proxy or HTTPS_PROXY, all_proxy or ALL_PROXY, no_proxy or
                NO_PROXY. Any option wins over every variable (--all-proxy over http_proxy too).
                """)]),
        ])
    ]

    private static let logins: [Block] = [
        .options([
            O(short: nil, long: "--http-user", argument: "USER", text: prose("""
                user for HTTP Basic authentication, sent with each request to the origins (scheme,
                host, port) of the entry's own URLs, never to another host a redirect leads to
                """)),
            O(short: nil, long: "--http-passwd", argument: "PASSWD", text: "its password"),
            O(short: nil, long: "--netrc-path", argument: "FILE", text: prose("""
                netrc file of logins by host (default: $HOME/.netrc, read when it exists); a host's
                login goes only to that host, and only when no --http-user applies. Its 'default'
                entry is ignored, as aria2 does for HTTP; its permissions are not checked.
                """)),
            O(short: "-n", long: "--no-netrc", argument: "[=true|false]", text: "read no netrc file"),
            O(short: nil, long: "--load-cookies", argument: "FILE", text: prose("""
                cookies in the Netscape/Mozilla format (curl -c, browser exports): each sent to the
                hosts and paths it belongs to, secure ones over https only, expired ones never
                """)),
            O(short: "-U", long: "--user-agent", argument: "UA",
              text: "the User-Agent header (a --header or header= one still wins)",
              notes: [prose("""
                Passwords appear nowhere salvo writes: not in the display, the JSON events, the
                manifest or error messages.
                """)]),
        ]),
        .manualOnly([
            .paragraph(prose("""
                A login, a netrc entry or a cookie goes only to the host it belongs to: a redirect
                to another host carries none of them.
                """))
        ]),
    ]

    private static let retries: [Block] = [
        .options([
            O(short: nil, long: "--max-tries", argument: "N",
              text: "attempts per file, the first included (default 5; 0 = no limit)"),
            O(short: nil, long: "--retry-wait", argument: "SEC", text: "seconds between attempts (default 1; 0-600)"),
            O(short: nil, long: "--timeout", argument: "SEC", text: "seconds a transfer may stall before it fails (default 60)"),
            O(short: nil, long: "--connect-timeout", argument: "SEC",
              text: "seconds a connection may take to open (default 60)",
              notes: [prose("""
                Retried: connection errors, timeouts, and HTTP\u{A0}408,\u{A0}429,\u{A0}500,
                502,\u{A0}503\u{A0}and\u{A0}504.
                Not\u{A0}retried:\u{A0}404\u{A0}and\u{A0}every\u{A0}other\u{A0}4xx; a checksum
                mismatch.
                """)]),
        ])
    ]

    private static let reporting: [Block] = [
        .options([
            O(short: nil, long: "--json", argument: nil, text: prose("""
                JSON lines on standard output, one event per line, each with an "event" field:
                start, progress (at most two a second per file), retry (attempt, delay, reason),
                single_connection (reason: -s could not cut the file into ranges), done (path,
                bytes, sha256, attempts, seconds), error (reason), cancelled (Ctrl-C; path of the
                kept partial file), skipped (-c found it whole) and summary, last
                """)),
            O(short: nil, long: "--manifest", argument: "FILE", text: prose("""
                when the run ends, one JSON line per file written to FILE: url, path, bytes, sha256,
                attempts, seconds, status (done, failed, interrupted, skipped) and reason for a
                failed file
                """)),
            O(short: "-q", long: "--quiet", argument: nil, text: prose("""
                no progress display and no notices: only errors, and the summary's failure lines on
                standard error
                """)),
            O(short: nil, long: "--help", argument: nil, text: "print the help and exit"),
            O(short: nil, long: "--version", argument: nil, text: "print the version and exit"),
        ]),
        .paragraph(prose("""
            On a terminal, one overall line (files done of those started so far, bytes, rate, and
            the ETA once every file has started and told its size) and a line per file in flight are
            redrawn in place up to ten times a second. Otherwise (a pipe, a log) each file prints one
            line as it ends, 'done\u{A0}\u{A0}PATH\u{A0}\u{A0}BYTES' or 'FAILED\u{A0}URL:\u{A0}REASON'.
            Both end with a summary: files done, failed and skipped (and stopped by Ctrl-C), bytes,
            time, mean rate, and each failure.
            """)),
    ]

    private static let interrupt: [Block] = [
        .paragraph(prose("""
            The first starts no new file and stops the files in flight, keeping each as NAME.part
            (continue it later with -c); the summary is printed and salvo exits with 130. A second
            Ctrl-C exits with 130 at once.
            """))
    ]

    private static let optionSyntax: [Block] = [
        .paragraph(prose("""
            Options take their value as '--opt=value', '--opt value', '-j4' or '-j\u{A0}4'. Flags may be
            grouped ('-cq'). '--' ends the options: every later argument is a URL. A [true|false]
            option named alone is true; it takes a value only after '=' ('--check-certificate=false').
            """))
    ]

    private static let fileNames: [Block] = [
        .paragraph(prose("""
            -o and out= name a file inside the output directory; a name that is absolute or climbs
            out with '..' is refused. When two URLs of one run map to the same name, the later ones
            get\u{A0}"\u{A0}(1)",\u{A0}"\u{A0}(2)",\u{A0}...\u{A0}before\u{A0}the extension:
            report.pdf, report\u{A0}(1).pdf, report\u{A0}(2).pdf.
            """)),
        .manualOnly([
            .paragraph(prose("""
                Names are claimed on the file system, so any number of salvo processes (shards of one
                job, unrelated runs) can write into one directory. A file's name is taken by creating
                its NAME.part exclusively, locked (flock) while its process works on it and marked
                with the URL it is for (the extended attribute user.salvo.url, which the finished file
                keeps); the finished file is renamed into place without ever replacing a file. A name
                that is taken (a finished file, or a partial file of another URL or of a running
                process) gets the next number. Which of several URLs with one name gets which number
                depends on which claims first, in this run and across processes; every URL gets
                exactly one file, and the manifest says which.
                """)),
            .paragraph(prose("""
                -c finds each URL's own earlier files under whatever number they got (a finished file
                is skipped, an abandoned .part of the same URL is continued), and never takes another
                URL's. So a file already under the final name that was not recorded as this URL's
                (from another program, or another URL) is left as it is, and the download takes the
                next name; --allow-overwrite replaces it instead. On file systems without user
                extended attributes the sidecar records the URL of a partial file from its creation,
                and -c knows a finished file by its checksum or size only.
                """)),
        ]),
    ]

    private static let inputFormat: [Block] = [
        .verbatim([
            "https://example.com/a.iso<TAB>https://mirror.example.org/a.iso",
            "  out=a.iso",
            "  dir=images",
            "  checksum=sha-256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "  header=Authorization: Bearer TOKEN",
            "# a comment",
            "https://example.com/b.tar.gz",
        ]),
        .paragraph(prose("""
            A line that does not start with a blank is an entry: one or more URLs of one file
            (mirrors), separated by TAB; each an absolute http or https URL. Lines starting with a
            space or TAB are options, name=value, for the entry above: out= (file name, relative to
            the directory), dir= (directory), checksum=TYPE=HEX (sha-256, sha-1, md5),
            header=Name:\u{A0}value (repeatable), and as aria2 allows them per entry, over the
            command line's: user-agent=, http-user=, http-passwd=, all-proxy=, http-proxy=,
            https-proxy=, no-proxy=, no-netrc=, remote-time=, allow-overwrite= and dry-run= (true or
            false). Lines starting with '#' are comments; blank lines are skipped; CRLF line ends and
            a UTF-8 byte order mark are accepted. An option before any entry, an unknown or
            malformed option, a bad checksum, URL or header stops the run before anything is
            downloaded, naming the file and line. A list read from standard input or a pipe is
            checked as it streams: at a bad line no further file starts, the files in flight finish,
            and salvo exits with 2 naming the line.
            """)),
    ]

    private static let exitStatus: [Block] = [
        .terms([
            Term(term: "0", text: "every file downloaded and verified"),
            Term(term: "1", text: "some files failed; the others were kept"),
            Term(term: "2", text: prose("""
                usage or input-list error; nothing was downloaded (from a streamed list, nothing
                after the bad line)
                """)),
            Term(term: "130", text: "interrupted by Ctrl-C"),
        ])
    ]

    private static let environment: [Block] = [
        .terms([
            Term(term: "http_proxy, https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY, no_proxy, NO_PROXY", text: prose("""
                proxies, read as curl reads them when no proxy option is given (see Proxies);
                http_proxy in lower case only
                """)),
            Term(term: "HOME", text: "where the default netrc file, $HOME/.netrc, is looked for"),
            Term(term: "JOB_COMPLETION_INDEX, SALVO_SHARDS", text: prose("""
                --shard auto in a Kubernetes Indexed Job: the pod's index K, and the number of
                shards N, which must equal the Job's completions
                """)),
            Term(term: "SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT", text: prose("""
                --shard auto in a Slurm job array: K is the task's ID minus the array's first,
                N the array's task count
                """)),
        ])
    ]

    private static let files: [Block] = [
        .terms([
            Term(term: "$HOME/.netrc", text: "logins by host, read when it exists (--netrc-path, --no-netrc)"),
            Term(term: "DIR/NAME.part, DIR/NAME.part.json", text: prose("""
                a file being downloaded and its sidecar (URL, validators, finished ranges); kept
                when a run fails or is interrupted, so that -c continues it
                """)),
        ])
    ]

    private static let examples: [Block] = [
        .verbatim([
            "salvo -d downloads https://example.com/a.iso https://example.com/b.iso",
            "salvo -i urls.txt -j 32 -c --manifest manifest.jsonl",
            "salvo -i urls.txt --shard auto --json",
            "salvo --ca-certificate corp-ca.pem -i urls.txt",
            "salvo --certificate me.pem --private-key me.key https://portal.example/data.tar",
            "salvo --all-proxy http://proxy.example:3128 --no-proxy .internal.example -i urls.txt",
            "salvo --http-user alice --http-passwd \"$PASSWORD\" https://data.example/a.nc",
            "salvo --load-cookies cookies.txt -U \"MyLab-Fetcher/1.0\" -R -i urls.txt",
            "salvo --dry-run -i urls.txt && salvo -i urls.txt",
        ]),
        .paragraph(prose("""
            Two files into downloads; an aria2 list, 32 files at once, resuming what an earlier run
            left and writing a manifest; one shard of a cluster job, with JSON events; a private CA,
            trusted beside the system's; a client certificate; a proxy, with hosts reached directly;
            an HTTP Basic login; cookies, a User-Agent and the server's file times; a check that
            every URL is there before the download.
            """)),
    ]

    private static let acrossMachines: [Block] = [
        .paragraph(prose("""
            --shard auto splits one list across the tasks of a scheduler with no coordination
            between them: each task takes the URLs whose FNV-1a-64 hash mod N is its index (a URL's
            shard depends on its text alone, so N tasks fetch every URL exactly once), and rerunning
            a failed task with -c continues its partial files. Every task needs the same list and a
            view of the output directory (a shared volume or file system).
            """)),
        .paragraph(prose("""
            A Kubernetes Indexed Job (Scripts/cluster/indexed-job.yaml in Salvo's repository) gives
            pod K JOB_COMPLETION_INDEX=K, but not the count, so SALVO_SHARDS must equal completions.
            Put the list at urls.txt on the volume and set image to one with salvo on its PATH; a
            failed pod is restarted with the same index and resumes.
            """)),
        .verbatim([
            "apiVersion: batch/v1",
            "kind: Job",
            "metadata:",
            "  name: salvo-download",
            "spec:",
            "  completionMode: Indexed",
            "  completions: 4",
            "  parallelism: 4",
            "  backoffLimit: 12",
            "  template:",
            "    spec:",
            "      restartPolicy: OnFailure",
            "      containers:",
            "        - name: salvo",
            "          image: registry.example.com/salvo:latest",
            "          command: [\"salvo\", \"-i\", \"/data/urls.txt\", \"--shard\", \"auto\", \"-c\", \"-d\", \"/data/out\"]",
            "          env:",
            "            - name: SALVO_SHARDS",
            "              value: \"4\"",
            "          volumeMounts:",
            "            - name: data",
            "              mountPath: /data",
            "      volumes:",
            "        - name: data",
            "          persistentVolumeClaim:",
            "            claimName: salvo-data",
        ]),
        .paragraph(prose("""
            A Slurm job array (Scripts/cluster/salvo-array.sbatch) is submitted from the directory
            holding urls.txt, with sbatch\u{A0}--array=0-3 for N\u{A0}=\u{A0}4; the array must be a
            plain range. Each task runs salvo\u{A0}-i\u{A0}urls.txt\u{A0}--shard\u{A0}auto\u{A0}-c\u{A0}-d\u{A0}out,
            with K\u{A0}=\u{A0}SLURM_ARRAY_TASK_ID\u{A0}-\u{A0}SLURM_ARRAY_TASK_MIN and N\u{A0}=\u{A0}SLURM_ARRAY_TASK_COUNT.
            Rerun
            a failed task inside its array, scontrol\u{A0}requeue\u{A0}JOBID_K, so that K and N stay the
            same (a new sbatch\u{A0}--array=K would be an array of one task: the whole list).
            """)),
        .verbatim([
            "#!/bin/bash",
            "#SBATCH --job-name=salvo",
            "#SBATCH --array=0-3",
            "#SBATCH --cpus-per-task=2",
            "#SBATCH --time=04:00:00",
            "#SBATCH --output=salvo-%A_%a.log",
            "set -euo pipefail",
            "exec salvo -i urls.txt --shard auto -c -d out",
        ]),
    ]

    private static let seeAlso: [Block] = [
        .paragraph("aria2c(1), curl(1), sbatch(1)"),
        .paragraph(prose("""
            The SalvoBulk module's documentation (the BulkDownloader library the tool is a command
            line over) is built with Scripts/docs.sh in Salvo's repository.
            """)),
    ]
}
