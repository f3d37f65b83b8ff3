import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real one-node Slurm (munged, slurmctld, slurmd from Debian's packages), started by
/// `Tests/Servers/slurm.sh` in a scratch folder of its own and stopped by `stop()`.
final class SlurmCluster {
    let directory: URL
    /// The cluster's `slurm.conf`, for `SLURM_CONF`.
    let configuration: String

    private static let script = TestServers.packageRoot.appendingPathComponent("Tests/Servers/slurm.sh")

    /// Starts the cluster; throws with the script's own account when it did not come up.
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("slurm-\(UUID().uuidString.prefix(8))")
        let outcome = try Self.command(Self.script.path, ["start", directory.path])
        guard outcome.status == 0,
              let line = outcome.output.split(separator: "\n").first(where: { $0.hasPrefix("SLURM_CONF=") }) else {
            _ = try? Self.command(Self.script.path, ["stop", directory.path])
            try? FileManager.default.removeItem(at: directory)
            throw TestServerError("Slurm did not start (status \(outcome.status)):\n\(outcome.output)\(outcome.errors)")
        }
        configuration = String(line.dropFirst("SLURM_CONF=".count))
    }

    /// Stops every daemon and job process and removes the folder.
    func stop() {
        _ = try? Self.command(Self.script.path, ["stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs a Slurm command (`sbatch`, `squeue`, `scontrol`) against this cluster.
    ///
    /// - Parameter environment: Variables for the command beyond this process's; `SLURM_CONF`
    ///   is set.
    func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String,
                                                                                                     errors: String) {
        var merged = ProcessInfo.processInfo.environment
        for key in merged.keys where key.hasPrefix("SLURM_") { merged[key] = nil }
        merged.merge(environment) { $1 }
        merged["SLURM_CONF"] = configuration
        return try Self.command("/usr/bin/" + tool, arguments, environment: merged)
    }

    /// The state and reason `squeue` gives for `job` ("RUNNING None", "PENDING BeginTime"), or
    /// `nil` once it is no longer listed.
    func state(of job: String) throws -> String? {
        let outcome = try run("squeue", ["-h", "-j", job, "-o", "%T %r"])
        let text = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return outcome.status == 0 && !text.isEmpty ? text : nil
    }

    /// Runs `path` with `arguments` to its end; returns its status and what it printed.
    ///
    /// With `posix_spawn` and `waitpid` rather than `Process`, whose wait for the end never
    /// returned here once the script had started daemons (its child was a zombie by then):
    /// the output goes to files, read once the child is gone.
    private static func command(_ path: String, _ arguments: [String],
                                environment: [String: String]? = nil) throws -> (status: Int32, output: String, errors: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("slurm-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputPath = scratch.appendingPathComponent("out").path
        let errorPath = scratch.appendingPathComponent("err").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw TestServerError("cannot run \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw TestServerError("waitpid for \(path) failed: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (exitStatus, output, errors)
    }
}
