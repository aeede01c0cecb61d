//go:build !unix

package report

// peakRSS returns 0: the platform has no getrusage.
func peakRSS() uint64 { return 0 }
