-- AlterEnum
ALTER TYPE "OrderJobKind" ADD VALUE 'confirm_booking';
