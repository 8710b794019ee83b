"""Reading the materials: notes split into items, numbers, evidence statements, subjects and identity."""
