// Package report provides the output side of runexp: per-cell records in
// JSON Lines and CSV, the paper-comparison tables, figures, and the run
// manifest, all written atomically and byte-for-byte reproducibly.
//
// # Overview
//
// An experiment's runner produces one [Record] per grid cell. The report
// stage turns the records of one config into the files of one result
// directory:
//
//	results/<config>/
//	    tables.txt      the paper table for the terminal ([Table.RenderText])
//	    tables.md       the same table as GitHub Markdown ([Table.RenderMarkdown])
//	    records.jsonl  one Record per line, including figure arrays ([WriteJSONL])
//	    records.csv    params and metrics, one row per cell ([WriteCSV])
//	    manifest.json  provenance of the run ([Manifest])
//	    *.png, *.svg   figures ([Figure], [ImageGrid]; [SavePlot], [SaveGrid])
//
// [WriteTables] writes tables.txt and tables.md together.
//
// # Figures
//
// Every figure follows one house style ([NewPanel], [SansFont] and the
// sizes beside it): a title per panel, one legend per figure drawn outside
// the data ([Figure.Legend], beside the panels or under them), reference
// points drawn with a [ReferenceGlyph] that no data glyph resembles, and a
// [Caption] naming the paper, the figure, what is shown and the reading of
// the paper. The caption is embedded in the PNG (an iTXt "Description"
// chunk) and the SVG (<desc>), not drawn: the run's HTML page shows it
// under the figure ([ReadCaption]), once and in type that does not shrink
// with a wide figure. Image-grid labels are laid out from measured glyph
// advances, unkerned so that glyphs never touch; they and captions may
// carry subscripts written as in TeX ("P_t", "x_{10}"), while identifiers
// keep their underscores ("mse_raw_median"). An image grid can print a
// note under each image ([ImageGrid.Notes]) and mark a pixel row or
// column of its images ([GridMark]).
//
// Golden-image tests (package reporttest) compare each figure type with a
// PNG under testdata approximately, as gonum/plot's cmpimg does; go test
// -update rewrites them.
//
// # Paper comparison
//
// Tables hold preformatted strings. [FormatFloat] formats a number with a
// given count of significant digits, and [FormatCompare] formats ours, the
// paper's value and the difference ours − paper, with [Dash] where the paper
// gives no value and "failed" where our value is NaN.
//
// # Determinism
//
// Records, tables and figures depend only on their inputs, never on the
// time, the machine, the locale or the order in which workers finished:
//
//   - JSON objects have sorted keys (Go maps marshal sorted) and floats are
//     written in their shortest round-tripping form; NaN and ±Inf, which
//     encoding/json rejects, are written as the strings "NaN", "+Inf" and
//     "-Inf" and read back as floats.
//   - CSV columns are the sorted union of param and metric names.
//   - Tables are rendered with East Asian width rules off and no re-casing,
//     so their layout does not depend on the terminal or locale.
//   - PNG plots are rasterised at a fixed [DPI], image grids at one pixel
//     per point, both with the Liberation fonts that gonum/plot embeds (no
//     system font is consulted); SVG figures are text produced by
//     gonum/plot's vgsvg or, for image grids, by this package.
//
// Only the manifest differs between runs: it records start and end times.
// Callers are responsible for ordering records (by key, say) before writing.
//
// # Atomic writes
//
// Every file goes through [WriteFileAtomic]: the content is rendered in
// memory, written to a temporary file in the destination directory, synced,
// and renamed over the destination. A run killed at any moment leaves each
// output either as it was or complete, so a resumed run ends byte-identical
// to an uninterrupted one.
//
// # Errors
//
// I/O and encoding failures are returned as errors prefixed "report:".
// Programmer errors — a table row longer than its header, an image of the
// wrong size, an empty figure — panic with a "report:" message.
package report
