// Package safefs holds the two guards every file runexp touches goes
// through, so that no input can make it read without bound or write
// outside the folder it was given.
//
// Reading: [ReadFile] and [Open] accept only regular files (a FIFO would
// block, /dev/zero never ends, a directory is a mistake) and [ReadFile]
// reads at most a stated number of bytes, deciding from the file's size
// before reading anything; [Lines] hands a reader's lines out one at a
// time, each at most a stated length, and counts them against a stated
// number. [ReadFileIn], [OpenIn] and [CheckInside] add that the file lie
// inside a root (the results root a report, the scoreboard, compare or
// the index reads): a symbolic link leading out of it is refused with an
// [OutsideError] naming the path and where it leads. A refusal names the
// file and what it is.
//
// Writing: [MkdirUnder] creates a folder below a root and [CheckUnder]
// checks one, refusing a symbolic link at any component between the root
// and the folder, as git refuses to follow a link out of its work tree.
// The root itself (--out, or a --cache folder typed on the command line)
// is the user's and is used as given, links included. Files are then
// written by rename (report.WriteFileAtomic), which replaces a link at the
// file's own name instead of following it. The checks are made when a
// folder is entered: a link swapped in afterwards by another process of
// the same user is not caught (nothing in the standard library opens a
// path without following links portably).
package safefs
