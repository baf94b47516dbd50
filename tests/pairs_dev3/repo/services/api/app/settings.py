from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FERNBILL_")

    environment: str = "dev"
    database_url: str = "postgresql+psycopg://fernbill@localhost:5432/fernbill"
    invoice_prefix: str = "INV"
    page_size: int = 50


settings = Settings()
