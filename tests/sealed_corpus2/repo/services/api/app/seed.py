import argparse


def main() -> None:
    parser = argparse.ArgumentParser(description="Seed a dev database with fake branches")
    parser.add_argument("--branches", type=int, default=3)
    args = parser.parse_args()
    for n in range(1, args.branches + 1):
        print(f"branch {n:02d}")


if __name__ == "__main__":
    main()
