import AutographCLI

AutographCLI.main()
