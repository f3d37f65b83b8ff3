/// One run of the tls-connect suite: as many GETs at once as the batch was made for, each
/// on a new verified TLS connection.
protocol FreshConnectionBatch {
    /// Starts every request and waits until all have completed.
    /// - Returns: How many failed.
    func run() throws -> Int
    /// Closes the connections and frees the handles or the session.
    func close()
}
