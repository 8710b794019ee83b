"""Cross-document detectors (counts, conflicts, anchors) and the grouping of bulk registrations."""
