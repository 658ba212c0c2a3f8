// Placeholder: replaced by the suite's tests.
