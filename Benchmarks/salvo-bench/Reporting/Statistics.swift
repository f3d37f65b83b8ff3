/// Median and spread of repeated measurements.
struct Statistics {
    let median: Double
    let minimum: Double
    let maximum: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        minimum = sorted.first ?? 0
        maximum = sorted.last ?? 0
        if sorted.isEmpty {
            median = 0
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// (maximum − minimum) / median, in percent: how far apart the rounds were.
    var spreadPercent: Double { median > 0 ? (maximum - minimum) / median * 100 : 0 }
}
