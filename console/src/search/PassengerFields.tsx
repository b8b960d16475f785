import type { Gender, PassengerTitle, PassengerType } from "../generated/graphql";
import { Field } from "../ui/Field";
import { words } from "../ui/format";

/** A passenger's details as typed, before the API checks them. */
export interface PassengerDraft {
  title: PassengerTitle | "";
  givenName: string;
  familyName: string;
  bornOn: string;
  gender: Gender | "";
  email: string;
  phoneNumber: string;
  passportNumber: string;
  passportCountry: string;
  passportExpiresOn: string;
}

export const EMPTY_PASSENGER: PassengerDraft = {
  title: "",
  givenName: "",
  familyName: "",
  bornOn: "",
  gender: "",
  email: "",
  phoneNumber: "",
  passportNumber: "",
  passportCountry: "",
  passportExpiresOn: "",
};

interface PassengerFieldsProps {
  index: number;
  type: PassengerType;
  draft: PassengerDraft;
  passportRequired: boolean;
  /** The API's message for a field of this passenger, by its name in the input (`givenName`, `identityDocuments[0].number`). */
  errorOf(field: string): string | undefined;
  onChange(draft: PassengerDraft): void;
}

/** One passenger's form; each field shows the API's own message about it, if it had one. */
export function PassengerFields({ index, type, draft, passportRequired, errorOf, onChange }: PassengerFieldsProps) {
  const set = (name: keyof PassengerDraft) => (event: { target: { value: string } }) => onChange({ ...draft, [name]: event.target.value });
  const document = (name: string) => errorOf(`identityDocuments[0].${name}`) ?? errorOf("identityDocuments");
  return (
    <fieldset className="grid-form">
      <legend>
        Passenger {index + 1} ({words(type)})
      </legend>
      <Field label="Title" error={errorOf("title")}>
        <select name={`passenger-${index}-title`} value={draft.title} onChange={set("title")}>
          <option value="">—</option>
          <option value="MR">Mr</option>
          <option value="MS">Ms</option>
          <option value="MRS">Mrs</option>
          <option value="DR">Dr</option>
        </select>
      </Field>
      <Field label="Given name" error={errorOf("givenName")}>
        <input name={`passenger-${index}-givenName`} autoComplete="off" value={draft.givenName} onChange={set("givenName")} />
      </Field>
      <Field label="Family name" error={errorOf("familyName")}>
        <input name={`passenger-${index}-familyName`} autoComplete="off" value={draft.familyName} onChange={set("familyName")} />
      </Field>
      <Field label="Date of birth" error={errorOf("bornOn")}>
        <input name={`passenger-${index}-bornOn`} type="date" value={draft.bornOn} onChange={set("bornOn")} />
      </Field>
      <Field label="Gender" hint="As on the travel document." error={errorOf("gender")}>
        {/* An enum cannot be sent empty: the browser asks for it before the API could. */}
        <select name={`passenger-${index}-gender`} required value={draft.gender} onChange={set("gender")}>
          <option value="">—</option>
          <option value="F">F</option>
          <option value="M">M</option>
        </select>
      </Field>
      <Field label="Email" error={errorOf("email")}>
        <input name={`passenger-${index}-email`} type="text" inputMode="email" autoComplete="off" value={draft.email} onChange={set("email")} />
      </Field>
      <Field label="Phone" hint="With the country code, e.g. +442080160508." error={errorOf("phoneNumber")}>
        <input name={`passenger-${index}-phoneNumber`} type="tel" autoComplete="off" value={draft.phoneNumber} onChange={set("phoneNumber")} />
      </Field>
      {passportRequired ? (
        <>
          <Field label="Passport number" error={document("number")}>
            <input name={`passenger-${index}-passportNumber`} autoComplete="off" value={draft.passportNumber} onChange={set("passportNumber")} />
          </Field>
          <Field label="Passport issued by" hint="Country code, e.g. GB." error={document("issuingCountryCode")}>
            <input name={`passenger-${index}-passportCountry`} autoComplete="off" maxLength={2} value={draft.passportCountry} onChange={set("passportCountry")} />
          </Field>
          <Field label="Passport expires" error={document("expiresOn")}>
            <input name={`passenger-${index}-passportExpiresOn`} type="date" value={draft.passportExpiresOn} onChange={set("passportExpiresOn")} />
          </Field>
        </>
      ) : null}
    </fieldset>
  );
}

/** The draft as the API's passenger input; empty optional fields are left out so the API names what is missing. */
export function passengerInput(id: string, draft: PassengerDraft, passportRequired: boolean) {
  return {
    id,
    ...(draft.title ? { title: draft.title } : {}),
    givenName: draft.givenName,
    familyName: draft.familyName,
    bornOn: draft.bornOn,
    gender: draft.gender as Gender,
    email: draft.email,
    phoneNumber: draft.phoneNumber,
    ...(passportRequired
      ? { identityDocuments: [{ type: "PASSPORT" as const, number: draft.passportNumber, issuingCountryCode: draft.passportCountry.toUpperCase(), expiresOn: draft.passportExpiresOn }] }
      : {}),
  };
}
