//go:build !unix

package safefs

const nonBlock = 0
