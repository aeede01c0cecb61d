// Package datasets provides runexp's data: a checksummed data root, loaders
// for the real datasets, synthetic generators, corruptions, and CSV matrices
// for users' own data.
//
// # Overview
//
// Every loader returns a Set: a data matrix with one sample per row, optional
// integer labels, and the image size when the rows are images (pixels stored
// row-major, so row i reshaped to Height×Width is the picture). Experiments
// take Sets from here, corrupt them with the functions in this package (for
// example AddGaussian), and hand them to the estimators.
//
// Every random choice takes a *rand.Rand (math/rand/v2) from the caller, or
// a seed the caller draws from one. The runner derives one per cell from the
// root seed and the cell's key, so the same cell draws the same samples and
// the same noise whatever else runs. The order in which each function
// consumes its generator is documented and is part of its contract:
// changing it changes published numbers.
//
// # The data root and checksums
//
// Datasets are never committed to the project. Their licences (see
// PROVENANCE.md, "Terms") allow research use but not redistribution inside a
// larger public collection, and they are tens of megabytes that would bloat
// every clone. Instead the project reads them from a data root: a directory
// given by the --data flag or the RUNEXP_DATA environment variable (CI uses
// ../shared/data). OpenRoot resolves it.
//
// The root holds a SHA256SUMS file in sha256sum format covering every file
// (check it by hand with `cd DIR && sha256sum -c SHA256SUMS`). Root.ReadFile
// verifies each file it returns against that list, so a result can only come
// from the bytes the paper reproduction was checked on: a truncated download
// or a different release of a dataset is an error, never a silently different
// table. Root.Files lists what a run read, with the hashes, for the run
// manifest.
//
// User errors (no data root, a missing file, a checksum mismatch, a malformed
// line) are returned as errors that name the file (and line) and say how to
// fix it; the CLI prints them as they are.
//
// A SHA256SUMS regenerated over a damaged or altered file passes that
// check, so every format is also checked for what it can hold. ReadFile
// reads only regular files of at most MaxDataFileBytes. Compressed data is
// read to its end with its own checksum verified: a MAT-file's zlib
// streams (Adler-32, with nothing after the matrix), the USPS files' gzip
// member (CRC-32 and size; a second member is an error, not more digits),
// ORL's zip entries (CRC-32). Decompressed sizes and line counts are
// bounded by the format: a MAT variable by its dimensions, a USPS text by
// the 9298 digits of the whole set (blank lines counted), an Oil Flow file
// by its 1000 points, an ORL entry by a 92×112 PGM, a GIF or JPEG by its
// header before decoding. Two entries of one dataset with the same content
// (the same SHA-256, the same decoded Yale face, the same archive entry)
// are an error naming both, unless PROVENANCE.md lists the pair
// (knownDuplicates: Yale faces' 9, Scene-15's 18).
//
// # USPS
//
// LoadUSPS reads the ESL zip code version of the USPS digits
// (usps/zip.train.gz, usps/zip.test.gz; 7291 and 2007 digits). Each line is a
// digit label followed by 256 grey levels in [-1, 1], a 16×16 image stored
// row-major. Two quirks, both recorded in PROVENANCE.md, shape the parser:
//
//   - The two files print numbers differently: the training file writes
//     fixed four-decimal values ("6.0000 -1.0000 -0.6310 …"), the test file
//     the shortest form ("9 -1 -0.948 …"). Fields are therefore split on
//     white space and parsed with strconv.ParseFloat, and the label is
//     accepted as any number that is an integer in 0..9.
//   - Lines of the training file end with a trailing space; splitting on
//     white space makes that harmless.
//
// The papers draw a fixed number of digits per class at random (for example
// 100 training and 100 test images of each of 0, 2, 4 and 9); LoadUSPS does
// the same, deterministically for a given generator state.
//
// # Extended Yale B
//
// LoadYaleB reads the cropped Extended Yale B faces (yaleb/CroppedYale/:
// 38 subjects, frontal pose, 64 point lightings each, binary PGM 168 wide ×
// 192 high) and selects them by illumination subset. The subset follows
// from the light's direction in the file name, yaleBNN_P00A±aaaE±ee.pgm
// (azimuth A, elevation E): the angle from the camera axis is
// arccos(cos A · cos E), and Georghiades et al. (2001) put angles up to 12°,
// 25°, 50° and 77° in subsets 1–4 and larger ones in subset 5. Subset 1 is
// the 7 lightings A+000E+00, A±005E±10, A±010E+00 (PROVENANCE.md). Three
// quirks of the files shape the loader:
//
//   - The collection is indexed by SHA256SUMS (Root.List), not by listing
//     the directory: a file without a checksum cannot be verified.
//   - 18 images are marked bad by the dataset's authors and stored as
//     ….pgm.bad, 3 of them in subset 1 (A-010E+00 of yaleB16, 17 and 18),
//     so subset 1 has 263 images, not 38 × 7 = 266, and subsets 1–2 have
//     719. They are skipped, as are the 38 ambient-only images
//     (_Ambient.pgm, most of them 640×480).
//   - By the computed angle, subsets 1–5 hold 7, 12, 10, 16 and 19
//     lightings; Georghiades et al. count 12 and 14 in subsets 3 and 4,
//     which would need A±035E+40 (51.1°) in subset 3. Subsets 1 and 2 are
//     unaffected.
//
// DecodePGM reads binary (P5) and plain (P2) grey maps, 8 or 16 bits, into
// a Gray with values sample/maxval in [0, 1]. Gray.Resize resamples with the
// Catmull-Rom kernel of golang.org/x/image/draw, which widens the kernel
// when shrinking, so a downscaled face is an antialiased average rather
// than a subsample (the result is quantised to 16 bits, an error below
// 1e-5).
//
// # MAT-files: CMU PIE
//
// DecodeMAT reads level-5 MAT-files (MATLAB 5 to 7; MathWorks, "MAT-File
// Format"): a 128-byte header, then data elements, each a matrix or a
// zlib-compressed matrix. Three quirks of the files in the data root shape
// it: compressed elements are not padded to 8 bytes while plain ones are;
// arrays are column-major; and a double matrix may be stored as uint8 (the
// 10-subject PIE file), so the class and the storage type are read
// separately and values converted exactly. Version 7.3 files (HDF5) and
// non-numeric classes are reported as errors, not guessed at.
//
// LoadPIE68 returns the frontal PIE faces (68 subjects × 42 lightings) and
// LoadPIE10 the 10-subject, 5-pose file with the within-subject index map
// (pose, expression/flash subset); both transpose the column-major 32×32
// images into the row-major order of Set.
//
// # Oil Flow
//
// LoadOilFlow reads Bishop & James's three-phase oil flow data: 12
// whitespace-separated numbers a line, one-hot labels in a second file.
//
// # Corruptions
//
// AddGaussian adds noise to a whole matrix from one generator. CorruptEach
// instead makes several corrupted copies of every image, each drawing from
// its own stream derived from a seed, the image's row and the copy number
// (CorruptionRand), so an image's corruption does not depend on the others
// and can be drawn again later (e.g. the occluding rectangle, for an error
// restricted to it). The corruptions of Zheng & Lai are GaussianStretch
// (noise of a given variance, then a linear stretch to [0, 1]) and Occlude
// (a black rectangle with uniform integer sides in a range, placed
// uniformly inside the image, then the stretch); Stretch01 is the stretch.
//
// A Corruption describes any corruption the experiments use (Gaussian
// noise, a black or a uniformly filled occlusion, missing entries, followed
// by the stretch, by a clip to [0, 1] (Clip01, the other reading of Zheng &
// Lai's noise) or by neither): the experiment layer builds one from its config,
// Func returns the CorruptFunc that draws it and Apply corrupts a whole set.
// CorruptRows applies a CorruptFunc with streams the caller names.
//
// # Splits
//
// Stratified splits every class into training and test rows (a count or a
// fraction of each class, seeded by the caller's streams); GroupDisjoint
// gives whole groups (subjects) to each part, so no subject is in two.
// SelectRows gathers the chosen rows into a Set.
//
// # Synthetic data
//
// TwoRings draws the two concentric (possibly partial) noisy rings of
// Abrahamsen & Hansen's Figs. 2 and 3. It needs no data root, which makes it
// the default that runs anywhere, including in tests and examples.
//
// # CSV matrices
//
// ReadCSVMatrix and WriteCSVMatrix carry a user's own data in and out of
// `runexp denoise`: comma-separated numbers, one sample per row. Writing uses
// the shortest decimal that round-trips (strconv 'g', -1), so a matrix written
// and read back is bit-identical, and the file is written to a temporary name
// and renamed so a killed run never leaves half a file.
package datasets
