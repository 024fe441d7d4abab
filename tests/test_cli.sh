echo "test_cli: not written yet"; exit 1
