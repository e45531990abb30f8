from counting.cli import main

main()
