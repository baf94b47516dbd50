from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LENDWELL_", env_file=".env")

    database_url: str = "postgresql://localhost:5432/lendwell"
    cors_origins: list[str] = ["http://localhost:5173"]
    covers_base_url: str = "https://covers.openlibrary.org"
    covers_timeout_s: float = 3.0


settings = Settings()
